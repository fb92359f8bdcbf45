import { useEffect, useRef, type RefObject } from 'react';

/**
 * The End key, for a page whose list may turn out shorter than it said: the window goes to the
 * end at once (the browser's own End is a smooth scroll, which Chromium keeps animating towards
 * the old end when the page shrinks under it, and stops above the new one; no scroll of ours
 * ends it). Returns whether the reader has asked for the end and not scrolled back up since:
 * the list then takes them to its new end when it shrinks (window-list.tsx).
 */
export function useHeadingToEnd(
  /** Asked first: true when the list took End itself (its end is not known, nor free to reach). */
  endElsewhere?: RefObject<(() => boolean) | undefined>,
): RefObject<boolean> {
  const heading = useRef(false);
  useEffect(() => {
    let lastY = window.scrollY;
    const onKey = (event: KeyboardEvent) => {
      heading.current =
        event.key === 'End' &&
        !event.defaultPrevented &&
        !event.altKey &&
        !event.shiftKey &&
        !isTextEntry(event.target) &&
        !inScrollingBox(event.target);
      if (!heading.current) return;
      event.preventDefault();
      if (endElsewhere?.current?.()) {
        heading.current = false;
        return;
      }
      window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight);
    };
    const onScroll = () => {
      if (window.scrollY < lastY) heading.current = false;
      lastY = window.scrollY;
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll);
    };
  }, [endElsewhere]);
  return heading;
}

/** Inside a box that scrolls on its own, End is that box's. */
function inScrollingBox(target: EventTarget | null): boolean {
  for (let node = target instanceof Element ? target : null; node; node = node.parentElement) {
    if (node === document.documentElement || node === document.body) return false;
    const { overflowY } = getComputedStyle(node);
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight)
      return true;
  }
  return false;
}

/** Where End moves a caret or a control's value, not the page. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  );
}
