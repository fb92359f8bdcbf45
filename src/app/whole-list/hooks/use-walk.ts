import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListKind, WalkProgress } from '../../../shared/whole-list.ts';
import { loadAll, type WalkOutcome } from '../api/walk-stream.ts';
import { walkCostOptions } from '../api/whole-list-queries.ts';

export type WalkState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: WalkProgress | null }
  | { phase: 'ended'; outcome: WalkOutcome };

/** Progress is drawn at most this often (a walk reads many pages a second). */
const PROGRESS_EVERY_MS = 100;

/** A "Load all" walk of the list: start, cancel, and where it is. Cancelled when the panel goes. */
export function useWalk(list: ListKind, id: string) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<WalkState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(() => {
    if (controller.current !== null) return;
    const walk = new AbortController();
    controller.current = walk;
    setState({ phase: 'running', progress: null });
    let drawn = 0;
    void loadAll(queryClient, list, id, {
      signal: walk.signal,
      onProgress: (progress) => {
        const now = performance.now();
        if (now - drawn < PROGRESS_EVERY_MS) return;
        drawn = now;
        setState({ phase: 'running', progress });
      },
    }).then((outcome) => {
      if (controller.current === walk) controller.current = null;
      setState({ phase: 'ended', outcome });
      // The pages it read are in the server's cache now, and the hour's quota moved.
      void queryClient.invalidateQueries({ queryKey: walkCostOptions(list, id).queryKey });
    });
  }, [queryClient, list, id]);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { state, start, cancel };
}

export type Walk = ReturnType<typeof useWalk>;
