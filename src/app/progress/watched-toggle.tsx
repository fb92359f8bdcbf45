import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';

// A row's watched mark as a toggle button: its pressed state is what a screen reader hears
// ("Mark #412 as watched, pressed"), so the mark is in the row's accessible tree, not only its
// colour. Above the row's stretched title link (z-10), as the channel link is.
export function WatchedToggle({
  pressed,
  label,
  onToggle,
}: {
  pressed: boolean;
  label: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      onClick={onToggle}
      className={cx(
        'relative z-10 flex size-9 shrink-0 items-center justify-center rounded-full border text-base',
        pressed
          ? 'border-emerald-700 bg-emerald-700 text-white dark:border-emerald-400 dark:bg-emerald-400 dark:text-zinc-950'
          : 'border-zinc-400 text-zinc-400 hover:border-zinc-700 hover:text-zinc-700 dark:border-zinc-600 dark:text-zinc-500 dark:hover:text-zinc-200',
        FOCUS_RING,
      )}
    >
      <span aria-hidden="true">✓</span>
    </button>
  );
}
