import {
  WALKS_PER_CLIENT,
  EXPORT_COLUMNS,
  EXPORT_TYPES,
  ITEM_URL_FIELD,
} from '../../shared/whole-list.ts';
import { endpointNames } from '../../shared/endpoints.ts';
import { SPOOL_LIMITS } from '../whole-list/walk-spool.ts';

// What each operation of the API does, for a reader of the OpenAPI document and its reference
// page, by operation ID. Paths, parameters, answers and codes are the operation table's
// (routes/api-operations.ts); this is only the prose around them.

const FIRST_PAGE =
  'The list’s first page is read before anything else (from the explorer’s cache when it holds it): when it cannot be had, the answer is that page’s problem, as the lookup would give it.';

const WALK_LIMITS = `A walk spends catalogue quota page by page; pages the explorer’s cache holds cost nothing. It does not start when the window’s remaining quota cannot cover a playlist (whose length its first page states; the problem then carries the walk’s \`cost\`), nor when this client already reads ${WALKS_PER_CLIENT} whole lists: both are a 429 with Retry-After, sent before any byte of a body. When jobs are served, a refusal that a job would get past (the quota, this client’s share or allowance, the walks already running) carries \`job\`: the request that starts the job doing the same work (\`POST\` its \`body\` as JSON to its \`href\`).`;

const CUT_OFF =
  'Once the first byte has gone out the status cannot change. A body that cannot be finished is cut off: the chunked body ends without its terminating chunk, so every client sees a transfer error (curl exits with 18, fetch rejects while the body is read), never a clean end';

const LOOKUP = (playlist: boolean) =>
  [
    `Answers one page at a time: follow \`continuation\` until it is null.${playlist ? ' The first page (no continuation) also carries the playlist’s `info`, with its stated length.' : ''}`,
    'The input is checked before any catalogue quota is spent; only the parameters listed are accepted, each at most once. Pages are cached: a repeated request costs no quota, and identical requests in flight share one catalogue call.',
    'When the catalogue fails and the explorer still holds an older copy of the page, that copy is answered with `X-Cache: stale` rather than the failure.',
  ].join('\n\n');

const NOT_STORED = 'Never cached (`Cache-Control: no-store`).';

const csvColumns = endpointNames
  .map(
    (list) =>
      `- \`${list}\`: ${[...EXPORT_COLUMNS[list].map((c) => c.name), ITEM_URL_FIELD].map((n) => `\`${n}\``).join(', ')}`,
  )
  .join('\n');

export const OPERATION_PROSE: Record<string, string> = {
  healthz: `Always \`{"status":"ok"}\`. ${NOT_STORED}`,
  readyz: `\`ready\`, or 503 with \`starting\` while a just-started process loads its renderer (a moment after it listens), or with \`stopping\` once shutdown began, or \`degraded\` (reason \`upstream_credentials_rejected\`) while the catalogue refuses the explorer’s credentials and every lookup would fail. A replica that lost the state it shares with others is \`degraded\` (reason \`shared_state_unavailable\`) but still ready: it serves alone. ${NOT_STORED}`,
  metrics:
    'The text exposition format. This route exists only when the operator configured a token (otherwise it is a 404 like any unknown path); a separate metrics port, when configured, serves the same text without one.',
  oembed: [
    'For oEmbed consumers (blog engines, chat tools): given the URL of a list’s view on this explorer, answers a `rich` response whose `html` is an <iframe> of the list’s embed view (a compact, scrollable list meant for other sites), and whose thumbnail is the view’s preview card.',
    'The URL must be on this explorer’s public origin and name a list: anything else is a 404, as is a list the catalogue does not have (finding out costs at most the lookup of its first page). `maxwidth` and `maxheight` bound the size; only `json` is answered, any other `format` is a 501. Other parameters a consumer sends (`theme`, `lang`) are ignored, as oEmbed expects of a provider.',
  ].join('\n\n'),
  demoEntries:
    'The demo catalogue’s headline playlists and channels. Only when the upstream is the embedded demo catalogue; a real upstream has no such list (404).',
  lookupPlaylist: LOOKUP(true),
  lookupChannelVideos: LOOKUP(false),
  lookupChannelPlaylists: LOOKUP(false),
  listSummary: [
    'Reads the list to its end (or to the end of the range) and adds up its measure: durations in seconds for videos, video counts for a channel’s playlists. Items with no usable value (live streams, missing durations) are counted apart.',
    FIRST_PAGE,
    WALK_LIMITS,
    'A walk that stops part-way (the quota ran out, the catalogue failed, or it was still reading when the answer could wait no longer: `list_too_long`) still answers 200, with `complete: false` and `stoppedBy` saying why.',
  ].join('\n\n'),
  createJob: [
    'A summary, an export in any format, or a load-all of any list, however long, as a job that outlives this request, a quota window and a restart. It walks the list a page at a time at the pace the quota allows, out of the part of the window not kept for people reading pages (`JOB_READER_RESERVE`); when that part is spent it waits, saying until when, and goes on by itself. Its rows go to disk as they arrive.',
    'Asking again for the same list, kind and format from the same client gives the same job (200); a new one is 202. Either way `Location` is the job’s address: 128 random bits, which whoever holds may read, and nobody can list.',
  ].join('\n\n'),
  readJob:
    'Its state (`queued`, `running`, `waiting` with `waitingUntil`, `done`, `failed` with its `problem`, `cancelled`), pages, items and lookups so far, and, as soon as the list’s length is known, what is left and when it should end. Once done, `result` says where the file is and until when it is kept.',
  cancelJob: 'Stops the job and drops what it had written. A job already ended stays as it ended.',
  jobResult:
    'The finished job’s file: an export in its format (named after the list), a load-all’s items as one JSON array, or a summary (`ListSummary`). It never changes, so its `ETag` holds for good, and a `Range` of bytes resumes a download cut short.',
  walkCost: [
    'How many pages the list has, how many at the start of its chain the cache already holds, how many catalogue calls a walk would spend and whether the window’s remaining quota covers them (if not, `retryAfter` says when it would). A channel’s lists state no length, so their figures are null and their walk goes on while the quota lasts.',
    FIRST_PAGE,
  ].join('\n\n'),
  walkList: [
    'Newline-delimited JSON, one `WalkEvent` a line: first `start` (the walk’s cost), then one `page` per page read, whose `page` is the lookup’s page for this list (`PlaylistPage`, `ChannelVideosPage` or `ChannelPlaylistsPage`) and whose `param` is the continuation it was asked for with (null for the first), then `end`. The stream is read as fast as the client takes it.',
    'A walk that stops before the list does (the quota ran out, the catalogue failed) still ends with an `end` line, with `complete: false` and `stoppedBy` saying why.',
    FIRST_PAGE,
    WALK_LIMITS,
    `${CUT_OFF}. That happens only when the explorer itself fails in the middle: the stream then has no \`end\` line, and a stream without one is incomplete whatever its pages say.`,
  ].join('\n\n'),
  exportList: [
    [
      'The last segment is the ID and the format’s extension. The answer is an attachment named after the list (a playlist’s title, a channel’s name), in the format its extension names:',
      `- \`csv\` (${EXPORT_TYPES.csv}): RFC 4180 with a header row, one column per field of the item and the item’s URL last. Thumbnails are their JSON array; an empty field is null.`,
      `- \`json\` (${EXPORT_TYPES.json}): one array of the items as the lookups give them, each with its \`${ITEM_URL_FIELD}\`.`,
      `- \`txt\` (${EXPORT_TYPES.txt}): one URL a line (a video’s watch page, a playlist’s page).`,
    ].join('\n'),
    `The CSV columns, by list (also in the CSV body’s \`x-columns\`):\n${csvColumns}`,
    FIRST_PAGE,
    WALK_LIMITS,
    `An export answers a complete file or is refused before its first byte. A playlist’s is priced from its first page and its lookups reserved before it answers. A channel’s lists state no length: the explorer reads the whole list first, as far as the quota and this client’s share allow now, and answers 200 (with \`Content-Length\`) only once it has the list’s end. When the walk stops first (\`quota_exhausted\`, \`share_exhausted\`, with \`progress\`), or the list is longer than an export reads before it answers (${SPOOL_LIMITS.maxPages.toLocaleString('en')} pages or ${SPOOL_LIMITS.maxBytes / 2 ** 20} MiB of file), or reading it takes longer than an answer may wait for its first byte (two thirds of the idle timeout), the answer is a problem (\`list_too_long\` for the last two) with \`job\`: the job that exports the list at the pace the quota allows. The pages read stay in the explorer’s cache, so that job, or a later try, does not pay for them again.`,
    `A file has nowhere to say that it is short, so an export that cannot be finished after its first byte (the catalogue or the explorer failed) is never ended cleanly. ${CUT_OFF}: the JSON array lacks its closing bracket, the CSV or text file stops short.`,
  ].join('\n\n'),
  openApiDocument:
    'The explorer’s API as OpenAPI 3.1, its paths and answers generated from the table the server routes by, its schemas from the same code that checks the answers.',
  apiReference:
    'The same document as an HTML page: every operation with its parameters, answers and problem codes, and what each code means. Static, with no script.',
};
