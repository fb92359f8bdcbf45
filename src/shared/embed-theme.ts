// An embed's colour scheme: the host page's (prefers-color-scheme inside an iframe follows the
// embedding page) unless the snippet pins one with `?theme=light` or `?theme=dark`.

export type EmbedTheme = 'light' | 'dark';

/** The pinned scheme, or undefined to follow the host's; anything else is ignored. */
export function readEmbedTheme(value: string | null): EmbedTheme | undefined {
  return value === 'light' || value === 'dark' ? value : undefined;
}
