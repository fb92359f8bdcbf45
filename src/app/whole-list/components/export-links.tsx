import type { MessageId } from '../../../shared/i18n/message-id.ts';
import { exportPath, type ExportFormat } from '../../../shared/whole-list.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { StartJob } from '../../jobs/use-start-job.ts';
import type { JobOffer } from '../hooks/use-job-offer.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, QUIET, SUBHEADING } from './panel-styles.ts';

// Downloads of the whole list: plain links to the server's exports, which read every page
// themselves, so a file never waits for Load all. The CSV is meant for a spreadsheet, so it
// comes with the byte order mark Excel needs to read it as UTF-8.
// A list that states no length, or costs more than can be paid now, is offered as a job too
// (docs/jobs.md): the server reads it at the quota's pace, for as long as that takes, and the
// file waits for the reader. Beyond what can be paid now, only the job is offered: the
// synchronous export would be refused.

const EXPORTS: ReadonlyArray<{
  format: ExportFormat;
  label: MessageId;
  title: MessageId;
  job: MessageId;
}> = [
  {
    format: 'csv',
    label: 'wholeList.export.csv',
    title: 'wholeList.export.csv.title',
    job: 'jobs.offer.csv',
  },
  {
    format: 'json',
    label: 'wholeList.export.json',
    title: 'wholeList.export.json.title',
    job: 'jobs.offer.json',
  },
  {
    format: 'txt',
    label: 'wholeList.export.txt',
    title: 'wholeList.export.txt.title',
    job: 'jobs.offer.txt',
  },
];

export function ExportLinks({
  list,
  id,
  offer,
  jobs,
}: Pick<WholeListProps, 'list' | 'id'> & { offer: JobOffer | null; jobs: StartJob }) {
  const { t } = useTranslation();
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>{t('wholeList.export.heading')}</h3>
      {offer !== 'too-long' && (
        <>
          <ul className="mt-2 flex flex-wrap gap-2">
            {EXPORTS.map(({ format, label, title }) => (
              <li key={format}>
                <a
                  href={exportPath(list, id, format, { bom: format === 'csv' })}
                  download
                  className={buttonClass('secondary', 'sm')}
                  title={t(title)}
                >
                  {t(label)}
                </a>
              </li>
            ))}
          </ul>
          <p className={`${QUIET} mt-2`}>{t('wholeList.export.note')}</p>
        </>
      )}
      {offer !== null && (
        <>
          <p className={`${NOTE} mt-2`}>
            {t(offer === 'too-long' ? 'jobs.offer.tooLong' : 'jobs.offer.unknownLength')}
          </p>
          <ul className="mt-2 flex flex-wrap gap-2">
            {EXPORTS.map(({ format, job }) => (
              <li key={format}>
                <Button
                  size="sm"
                  variant={offer === 'too-long' ? 'primary' : 'secondary'}
                  disabled={jobs.starting}
                  onClick={() => jobs.start('export', format)}
                >
                  {t(job)}
                </Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
