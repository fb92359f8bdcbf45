// The jobs' text and card styles (Tailwind), light and dark, as the Whole list panel's
// (whole-list/components/panel-styles.ts), where a job's card also shows.

export const NOTE = 'text-sm text-zinc-700 dark:text-zinc-300';
export const QUIET = 'text-xs text-zinc-600 dark:text-zinc-400';
export const WARNING = 'text-sm font-medium text-amber-800 dark:text-amber-300';
export const CARD =
  'rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-950';
export const BAR =
  'h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-blue-600 dark:[&::-webkit-progress-bar]:bg-zinc-700 dark:[&::-webkit-progress-value]:bg-blue-400';
