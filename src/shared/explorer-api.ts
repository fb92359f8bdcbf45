import { z } from 'zod';

// What the explorer server adds on top of the three lookups: the demo catalogue's entries
// for the home page.

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
