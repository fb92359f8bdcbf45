declare module 'virtual:catalogs' {
  import type { Messages } from '@lingui/core';
  /** Each locale's compiled catalog, a chunk of its own (shared/i18n/catalog-plugin.ts). */
  export const catalogs: Record<string, () => Promise<{ default: Messages }>>;
}
