import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isFinished } from '../../shared/jobs.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { isGone, jobOptions } from './job-api.ts';
import { markTitle, notify } from './job-ended.ts';
import { jobList, useJobList, type StoredJob } from './job-list.ts';
import { endedText, kindText, listText } from './job-text.ts';

// On every page, while this browser has a job that has not ended: each is read as it runs
// (job-api.ts polls; the panel and the jobs view read the same queries, so nothing is asked
// twice), and when one ends the list notes it. One that ends while the page is open, having been
// seen unfinished here, is told to the reader (job-ended.ts): the title, and a notification if
// they asked for one. A job that ended while no page was open is only noted: its card says it.

function WatchedJob({ stored }: { stored: StoredJob }) {
  const translation = useTranslation();
  const { data: job, error } = useQuery(jobOptions(stored.id));
  const seenRunning = useRef(false);
  const gone = error !== null && isGone(error);
  useEffect(() => {
    if (gone) {
      jobList.markEnded(stored.id, 'gone');
      return;
    }
    if (job === undefined) return;
    if (!isFinished(job.state)) {
      seenRunning.current = true;
      return;
    }
    jobList.markEnded(job.id, job.state as 'done' | 'failed' | 'cancelled');
    if (!seenRunning.current) return;
    seenRunning.current = false;
    const ended = endedText(job, kindText(job.request, translation), translation);
    if (ended === null) return; // cancelled: the reader's own doing
    markTitle(ended.title);
    if (stored.notify)
      notify(job.id, ended.notice, listText(job.request, stored.title, translation));
  }, [job, gone, stored, translation]);
  return null;
}

export function JobWatcher() {
  const running = useJobList().filter((job) => job.ended === null);
  return running.map((job) => <WatchedJob key={job.id} stored={job} />);
}
