import { z } from 'zod';
import { endpointNames } from './endpoints.ts';

// What the explorer server adds on top of the three lookups: the demo catalogue's entries
// for the home page, and the first page of a deep link shipped inside the HTML.

export const demoEntrySchema = z.object({
  kind: z.enum(['playlist', 'channel']),
  id: z.string(),
  title: z.string(),
  description: z.string(),
});
export type DemoEntry = z.infer<typeof demoEntrySchema>;

/** `GET /api/demo`: 404 when the upstream is not the embedded catalogue. */
export const DEMO_ENTRIES_PATH = '/api/demo';
export const demoEntriesSchema = z.object({ entries: z.array(demoEntrySchema) });

/**
 * A deep link's first page, embedded in the HTML as
 * `<script type="application/json" id="initial-page">…</script>` so the first rows render
 * without a second round trip. A JSON data block is not a script, so a strict CSP allows it.
 * `page` is parsed with the endpoint's page schema by the app.
 */
export const INITIAL_PAGE_ELEMENT_ID = 'initial-page';
export const INITIAL_PAGE_PLACEHOLDER = '<!--initial-page-->';
export const initialPageSchema = z.object({
  endpoint: z.enum(endpointNames as [string, ...string[]]),
  id: z.string(),
  page: z.unknown(),
});
export type InitialPage = z.infer<typeof initialPageSchema>;
