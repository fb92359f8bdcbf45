// The panel's own text and card styles (Tailwind), light and dark; its buttons and fields are
// the app's (src/app/components/ui).

export const SUBHEADING = 'text-sm font-semibold text-zinc-900 dark:text-zinc-50';
export const NOTE = 'text-sm text-zinc-700 dark:text-zinc-300';
export const QUIET = 'text-xs text-zinc-600 dark:text-zinc-400';
export const CARD =
  'rounded-lg border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-950';
