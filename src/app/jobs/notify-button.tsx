import { useState } from 'react';
import { Button } from '../components/ui/button.tsx';
import { useTranslation } from '../i18n/use-translation.ts';
import { askToNotify, notifyPermission } from './job-ended.ts';
import { jobList, type StoredJob } from './job-list.ts';
import { QUIET } from './job-styles.ts';

// "Notify me when done", on a job that has not ended: the browser's permission is asked for
// here, on the reader's click and nowhere else; once given, the job is marked to notify
// (job-watcher.tsx sends it). Where the browser has no notifications, nothing is offered; where
// the reader has blocked them, the card says so rather than offering a button that cannot work.

export function NotifyButton({ job }: { job: StoredJob }) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState(notifyPermission);
  if (permission === 'unsupported') return null;
  if (permission === 'denied') return <p className={QUIET}>{t('jobs.notify.blocked')}</p>;
  if (job.notify && permission === 'granted') return <p className={QUIET}>{t('jobs.notify.on')}</p>;
  const ask = async () => {
    const answer = await askToNotify();
    setPermission(answer);
    if (answer === 'granted') jobList.setNotify(job.id, true);
  };
  return (
    <Button size="sm" variant="secondary" onClick={() => void ask()}>
      {t('jobs.notify')}
    </Button>
  );
}
