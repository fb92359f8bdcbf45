import { useEffect, useRef, useState } from 'react';

// A polite word for a screen reader when more rows arrive: the rows since the last word, at
// most once every few seconds, so a fast scroller is not read a count for every page.

const QUIET_MS = 4000;

/** How many rows arrived since the last announcement, or null while there is nothing to say. */
export function useArrivalAnnouncement(loaded: number): number | null {
  const [said, setSaid] = useState<number | null>(null);
  const base = useRef(loaded);
  const lastAt = useRef(0);
  const timer = useRef(0);
  useEffect(() => {
    if (loaded <= base.current) {
      base.current = Math.min(base.current, loaded);
      return;
    }
    const say = () => {
      timer.current = 0;
      lastAt.current = performance.now();
      setSaid(loaded - base.current);
      base.current = loaded;
    };
    window.clearTimeout(timer.current);
    const wait = Math.max(0, lastAt.current + QUIET_MS - performance.now());
    timer.current = window.setTimeout(say, wait);
  }, [loaded]);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return said;
}
