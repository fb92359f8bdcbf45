import { useState, type MouseEvent } from 'react';
import type { MessageId } from '../../../shared/i18n/message-id.ts';
import { jobPointerOf, type JobPointer } from '../../../shared/job-pointer.ts';
import { exportPath, type ExportFormat } from '../../../shared/whole-list.ts';
import { ApiError } from '../../api/api-error.ts';
import { request } from '../../api/api-client.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { StartJob } from '../../jobs/use-start-job.ts';
import { failureSentence } from '../../lib/problem-text.ts';
import type { JobOffer } from '../hooks/use-job-offer.ts';
import { downloadName } from '../lib/download-name.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, QUIET, SUBHEADING } from './panel-styles.ts';

// Downloads of the whole list: plain links to the server's exports, which read every page
// themselves, so a file never waits for Load all. The CSV carries the byte order mark Excel needs
// to read it as UTF-8. A list of unknown length, or costing more than can be paid now, is offered
// as a job too (docs/jobs.md); past what can be paid now, only the job, since the export would be
// refused. A list of unknown length may be refused before its first byte, so its links fetch the
// file first, to say a refusal here, with its job, rather than as a failed download.

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

type Fetching = { format: ExportFormat; state: 'reading' } | { state: 'refused'; error: unknown };

/** Saves a fetched answer as the file it names (the server read it whole before answering). */
async function save(response: Response, fallback: string): Promise<void> {
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadName(response.headers.get('Content-Disposition')) ?? fallback;
  document.body.append(link);
  link.click();
  link.remove();
  // Once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Why a synchronous export was refused, in the reader's words. */
function refusalText(error: unknown, translation: ReturnType<typeof useTranslation>): string {
  const { t } = translation;
  const reason =
    error instanceof ApiError && error.code === 'list_too_long'
      ? t('jobs.export.tooLong')
      : failureSentence(error, translation);
  return t('jobs.export.refused', { reason });
}

export function ExportLinks({
  list,
  id,
  offer,
  jobs,
}: Pick<WholeListProps, 'list' | 'id'> & { offer: JobOffer | null; jobs: StartJob }) {
  const translation = useTranslation();
  const { t } = translation;
  const [fetching, setFetching] = useState<Fetching | null>(null);
  // A channel's lists state no length (whether or not the cost has come yet).
  const fetchFirst = list !== 'playlist';
  const fetchExport = (event: MouseEvent<HTMLAnchorElement>, format: ExportFormat) => {
    if (!fetchFirst) return; // a plain download, streamed as the server reads
    event.preventDefault();
    if (fetching?.state === 'reading') return;
    setFetching({ format, state: 'reading' });
    const href = event.currentTarget.href;
    request(href, undefined, '*/*')
      .then((response) => save(response, `${id}.${format}`))
      .then(
        () => setFetching(null),
        (error: unknown) => setFetching({ state: 'refused', error }),
      );
  };
  const pointer: JobPointer | undefined =
    fetching?.state === 'refused' && fetching.error instanceof ApiError
      ? jobPointerOf(fetching.error.problem)
      : undefined;
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
                  onClick={(event) => fetchExport(event, format)}
                  aria-disabled={fetching?.state === 'reading' || undefined}
                >
                  {t(label)}
                </a>
              </li>
            ))}
          </ul>
          <p className={`${QUIET} mt-2`}>{t('wholeList.export.note')}</p>
          {fetching?.state === 'reading' && (
            <p role="status" className={`${NOTE} mt-2`}>
              {t('jobs.export.reading')}
            </p>
          )}
          {fetching?.state === 'refused' && (
            <div role="alert" className="mt-2 space-y-2">
              <p className={NOTE}>{refusalText(fetching.error, translation)}</p>
              {pointer && (
                <Button
                  size="sm"
                  disabled={jobs.starting}
                  onClick={() => {
                    setFetching(null);
                    jobs.start(pointer.body.kind, pointer.body.format);
                  }}
                >
                  {t('jobs.export.startJob')}
                </Button>
              )}
            </div>
          )}
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
