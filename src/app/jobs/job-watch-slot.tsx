import { useEffect, useState, type ComponentType } from 'react';
import { useHydrated } from '../hooks/use-hydrated.ts';
import { JOB_LIST_CHANGED, JOB_LIST_KEY, storedUnfinishedJob } from './job-list-key.ts';

// In the frame around every view: the jobs' watcher (job-watcher.tsx), a chunk of its own,
// downloaded only once this browser has a job that has not ended, so that a reader who never
// started one carries none of it. Asked on arrival, when this page starts a job, and when
// another tab does.

export function JobWatchSlot() {
  const hydrated = useHydrated();
  const [Watcher, setWatcher] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (!hydrated || Watcher !== null) return;
    let live = true;
    const load = () => {
      import('./job-watcher.tsx').then(
        (module) => live && setWatcher(() => module.JobWatcher),
        () => {}, // offline: the next change asks again
      );
    };
    const onChange = (event: Event) => {
      if ((event as CustomEvent<boolean>).detail) load();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === JOB_LIST_KEY && storedUnfinishedJob()) load();
    };
    if (storedUnfinishedJob()) load();
    window.addEventListener(JOB_LIST_CHANGED, onChange);
    window.addEventListener('storage', onStorage);
    return () => {
      live = false;
      window.removeEventListener(JOB_LIST_CHANGED, onChange);
      window.removeEventListener('storage', onStorage);
    };
  }, [hydrated, Watcher]);
  return Watcher ? <Watcher /> : null;
}
