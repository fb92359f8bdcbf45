import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { JobKind } from '../../shared/jobs.ts';
import type { ExportFormat, ListKind } from '../../shared/whole-list.ts';
import type { StorageFailure } from '../lib/local-store.ts';
import { jobKey, startJob } from './job-api.ts';
import { jobList } from './job-list.ts';

// Starting a job on a list: the server answers the job (a new one, or the same one again for
// the same list, kind and format: docs/jobs.md), which goes into this browser's list of jobs
// at once, so that its card shows, the watcher follows it, and a reload finds it again. When
// storage refuses to keep it, the job still runs and shows on this page; `notKept` says why it
// will not be found again. (Plain state rather than the query library's mutations, whose code
// would join what every page downloads first.)

export interface StartJob {
  start: (kind: JobKind, format?: ExportFormat) => void;
  /** A job is being asked for. */
  starting: boolean;
  /** Why the last one could not start. */
  error: unknown;
  notKept: StorageFailure | null;
}

export function useStartJob(list: ListKind, id: string, title: string | null): StartJob {
  const queryClient = useQueryClient();
  const [state, setState] = useState<Omit<StartJob, 'start'>>({
    starting: false,
    error: null,
    notKept: null,
  });
  const start = (kind: JobKind, format?: ExportFormat) => {
    setState((now) => ({ ...now, starting: true, error: null }));
    startJob({ list, id, kind, ...(format ? { format } : {}) }).then(
      (job) => {
        queryClient.setQueryData(jobKey(job.id), job);
        const kept = jobList.add({ id: job.id, request: job.request, title });
        setState({ starting: false, error: null, notKept: kept.ok ? null : kept.reason });
      },
      (error: unknown) => setState((now) => ({ ...now, starting: false, error })),
    );
  };
  return { ...state, start };
}
