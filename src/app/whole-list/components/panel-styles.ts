// The panel's own text and card styles (Tailwind), light and dark; its buttons and fields are
// the app's (src/app/components/ui).

export const SUBHEADING = 'text-sm font-semibold text-zinc-900 dark:text-zinc-50';
export const NOTE = 'text-sm text-zinc-700 dark:text-zinc-300';
export const QUIET = 'text-xs text-zinc-600 dark:text-zinc-400';
export const BUTTON =
  'inline-flex items-center justify-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-semibold text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:bg-zinc-400 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400 dark:disabled:bg-zinc-600';
export const BUTTON_QUIET =
  'inline-flex items-center justify-center rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm font-semibold text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800';
export const INPUT =
  'rounded-md border border-zinc-400 bg-white px-2 py-1.5 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-950 dark:text-zinc-100';
export const CARD =
  'rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-950';
