import { escapeHtml } from '../rendering/preview-text.ts';
import { STATUS_CODES } from 'node:http';
import { WHOLE_LIST_PATHS } from '../../shared/whole-list.ts';

// The OpenAPI document as a page a person can read, rendered once on the server from the
// document itself, so the two never disagree. Plain semantic HTML: the explorer's CSP allows
// neither inline scripts nor inline styles, and the page needs neither; one same-origin
// stylesheet sets its type (color-scheme lets it follow a dark theme); every operation, parameter,
// answer and schema is a heading, a table or a <pre> block, and every piece of text from the
// document is escaped.

type Json = Record<string, unknown>;

/** Served from the built app's files (public/api-reference.css). */
export const REFERENCE_STYLESHEET = '/api-reference.css';
/** The app's icon, from the same files (public/favicon.svg). */
const ICON = '/favicon.svg';

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, key: string): Json => {
  const found = isObject(value) ? value[key] : undefined;
  return isObject(found) ? found : {};
};
const textAt = (value: unknown, key: string): string | undefined => {
  const found = isObject(value) ? value[key] : undefined;
  return typeof found === 'string' ? found : undefined;
};

/** The link previews' escaping, safe in element text and quoted attributes alike. */
export { escapeHtml };

/** An anchor name: only characters that need no escaping in a URL fragment or an attribute. */
const anchor = (prefix: string, name: string) =>
  `${prefix}-${name.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.codePointAt(0)?.toString(16)}`)}`;

const SCHEMA_PREFIX = '#/components/schemas/';

/**
 * The few marks the document's descriptions use: paragraphs, `- ` lists and `code` spans.
 * Escaped first, then marked up, so nothing in the text can become markup.
 */
function prose(text: string | undefined): string {
  if (text === undefined || text.trim() === '') return '';
  const inline = (line: string) =>
    escapeHtml(line).replace(/`([^`]+)`/g, (_, code: string) => `<code>${code}</code>`);
  const out: string[] = [];
  for (const block of text.split(/\n{2,}/)) {
    let items: string[] = [];
    let paragraph: string[] = [];
    const flushItems = () => {
      if (items.length > 0)
        out.push(`<ul>\n${items.map((i) => `<li>${i}</li>`).join('\n')}\n</ul>`);
      items = [];
    };
    const flushParagraph = () => {
      if (paragraph.length > 0) out.push(`<p>${paragraph.join(' ')}</p>`);
      paragraph = [];
    };
    for (const line of block.split('\n')) {
      if (line.startsWith('- ')) {
        flushParagraph();
        items.push(inline(line.slice(2)));
      } else {
        flushItems();
        paragraph.push(inline(line));
      }
    }
    flushParagraph();
    flushItems();
  }
  return out.join('\n');
}

/** A schema as indented JSON, escaped, with each reference to a component made a link. */
function schemaBlock(schema: unknown): string {
  const text = escapeHtml(JSON.stringify(schema, null, 2));
  const linked = text.replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9_-]+)&quot;/g,
    (_, name: string) =>
      `&quot;<a href="#${anchor('schema', name)}">${SCHEMA_PREFIX}${name}</a>&quot;`,
  );
  return `<pre><code>${linked}</code></pre>`;
}

/** A short schema on one line (a parameter's), a named one as a link to it. */
function schemaInline(schema: unknown): string {
  const ref = textAt(schema, '$ref');
  if (ref?.startsWith(SCHEMA_PREFIX)) {
    const name = ref.slice(SCHEMA_PREFIX.length);
    return `<a href="#${anchor('schema', name)}">${escapeHtml(name)}</a>`;
  }
  // One of several named schemas: "PlaylistId or ChannelId".
  const choices = isObject(schema) ? (schema.anyOf ?? schema.oneOf) : undefined;
  if (
    Array.isArray(choices) &&
    Object.keys(schema as Json).length === 1 &&
    choices.every((c) => textAt(c, '$ref')?.startsWith(SCHEMA_PREFIX))
  )
    return choices.map(schemaInline).join(' or ');
  const text = escapeHtml(JSON.stringify(schema ?? {}));
  return `<code>${text.replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9_-]+)&quot;/g,
    (_, name: string) => `<a href="#${anchor('schema', name)}">${name}</a>`,
  )}</code>`;
}

/** A `$ref` to a response or a header, followed one step (the document has no deeper ones). */
function resolve(document: Json, value: unknown): Json {
  const ref = textAt(value, '$ref');
  if (ref === undefined || !ref.startsWith('#/')) return isObject(value) ? value : {};
  let target: unknown = document;
  for (const part of ref.slice(2).split('/')) target = objectAt(target, part);
  return isObject(target) ? target : {};
}

const METHODS = ['get', 'head', 'put', 'post', 'delete', 'options', 'patch', 'trace'] as const;

interface Operation {
  method: string;
  path: string;
  operation: Json;
  id: string;
}

/** Every operation in the document, in its order. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(objectAt(document, 'paths'))) {
    for (const method of METHODS) {
      const operation = objectAt(item, method);
      if (Object.keys(operation).length === 0) continue;
      const id = textAt(operation, 'operationId') ?? `${method}-${path}`;
      operations.push({ method: method.toUpperCase(), path, operation, id });
    }
  }
  return operations;
}

function parametersTable(document: Json, operation: Json): string {
  const parameters = Array.isArray(operation.parameters) ? operation.parameters : [];
  if (parameters.length === 0) return '<p>No parameters.</p>';
  const rows = parameters.map((raw) => {
    const parameter = resolve(document, raw);
    return [
      '<tr>',
      `<td><code>${escapeHtml(textAt(parameter, 'name') ?? '')}</code></td>`,
      `<td>${escapeHtml(textAt(parameter, 'in') ?? '')}</td>`,
      `<td>${parameter.required === true ? 'yes' : 'no'}</td>`,
      `<td>${schemaInline(parameter.schema)}</td>`,
      `<td>${prose(textAt(parameter, 'description'))}</td>`,
      '</tr>',
    ].join('');
  });
  return [
    '<table>',
    '<thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Required</th><th scope="col">Schema</th><th scope="col">Description</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table>',
  ].join('\n');
}

function responseSection(document: Json, status: string, raw: unknown): string {
  const response = resolve(document, raw);
  const reason = status === 'default' ? 'Any other status' : (STATUS_CODES[Number(status)] ?? '');
  const parts = [`<h4>${escapeHtml(status)} ${escapeHtml(reason)}</h4>`];
  parts.push(prose(textAt(response, 'description')));
  const codes = Array.isArray(response['x-problem-codes']) ? response['x-problem-codes'] : [];
  if (codes.length > 0) {
    const links = codes.map(
      (code) =>
        `<a href="#${anchor('code', String(code))}"><code>${escapeHtml(String(code))}</code></a>`,
    );
    parts.push(`<p>Problem codes: ${links.join(', ')}</p>`);
  }
  const headers = Object.entries(objectAt(response, 'headers'));
  if (headers.length > 0) {
    parts.push('<dl>');
    for (const [name, header] of headers) {
      parts.push(
        `<dt>Header <code>${escapeHtml(name)}</code></dt><dd>${prose(textAt(resolve(document, header), 'description'))}</dd>`,
      );
    }
    parts.push('</dl>');
  }
  for (const [type, media] of Object.entries(objectAt(response, 'content'))) {
    parts.push(`<p>Body: <code>${escapeHtml(type)}</code></p>`);
    if (isObject(media) && media.schema !== undefined) parts.push(schemaBlock(media.schema));
  }
  return parts.filter((p) => p !== '').join('\n');
}

function operationSection(document: Json, { method, path, operation, id }: Operation): string {
  const parts = [
    `<section id="${anchor('op', id)}">`,
    `<h3><code>${escapeHtml(method)} ${escapeHtml(path)}</code></h3>`,
  ];
  const summary = textAt(operation, 'summary');
  if (summary !== undefined) parts.push(`<p><strong>${escapeHtml(summary)}</strong></p>`);
  parts.push(prose(textAt(operation, 'description')));
  if (Array.isArray(operation.security) && operation.security.length > 0) {
    const schemes = operation.security.flatMap((s) => (isObject(s) ? Object.keys(s) : []));
    const described = schemes.map((name) =>
      prose(
        textAt(objectAt(objectAt(document.components, 'securitySchemes'), name), 'description'),
      ),
    );
    parts.push(
      `<p>Needs: ${schemes.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}</p>`,
      ...described,
    );
  }
  parts.push('<h4>Parameters</h4>', parametersTable(document, operation));
  for (const [status, response] of Object.entries(objectAt(operation, 'responses')))
    parts.push(responseSection(document, status, response));
  parts.push('</section>');
  return parts.filter((p) => p !== '').join('\n');
}

function problemCodesSection(document: Json, operations: Operation[]): string {
  const meanings = objectAt(document, 'x-problem-codes');
  // Where each code can come from: "GET /api/v1/playlist 404", linked to the operation.
  const usedBy = new Map<string, string[]>();
  for (const { method, path, operation, id } of operations) {
    for (const [status, raw] of Object.entries(objectAt(operation, 'responses'))) {
      const codes = resolve(document, raw)['x-problem-codes'];
      if (!Array.isArray(codes)) continue;
      for (const code of codes) {
        const list = usedBy.get(String(code)) ?? [];
        list.push(
          `<a href="#${anchor('op', id)}">${escapeHtml(`${method} ${path}`)}</a> ${escapeHtml(status)}`,
        );
        usedBy.set(String(code), list);
      }
    }
  }
  const rows = Object.entries(meanings).map(
    ([code, meaning]) =>
      `<tr id="${anchor('code', code)}"><td><code>${escapeHtml(code)}</code></td><td>${prose(String(meaning))}</td><td>${(usedBy.get(code) ?? []).join('<br>')}</td></tr>`,
  );
  return [
    '<section id="problem-codes">',
    '<h2>Problem codes</h2>',
    '<p>Every error is an <code>application/problem+json</code> document whose <code>code</code> is one of these (see the <a href="#schema-Problem">Problem</a> schema). On 429 and 503, and on some 502 and 504, a <code>Retry-After</code> header and the <code>retryAfter</code> field say how many seconds to wait.</p>',
    '<table>',
    '<thead><tr><th scope="col">Code</th><th scope="col">Meaning</th><th scope="col">Answered by</th></tr></thead>',
    `<tbody>\n${rows.join('\n')}\n</tbody>`,
    '</table>',
    '</section>',
  ].join('\n');
}

function schemasSection(document: Json): string {
  const schemas = Object.entries(objectAt(objectAt(document, 'components'), 'schemas'));
  return [
    '<section id="schemas">',
    '<h2>Schemas</h2>',
    '<p>JSON Schema (draft 2020-12), generated from the explorer’s own schemas.</p>',
    ...schemas.map(
      ([name, schema]) =>
        `<section id="${anchor('schema', name)}">\n<h3>${escapeHtml(name)}</h3>\n${schemaBlock(schema)}\n</section>`,
    ),
    '</section>',
  ].join('\n');
}

/** The whole page for `document`. */
export function renderReferencePage(document: Json): string {
  const info = objectAt(document, 'info');
  const title = `${textAt(info, 'title') ?? 'API'} ${textAt(info, 'version') ?? ''}`.trim();
  const operations = operationsOf(document);

  const byTag = new Map<string, Operation[]>();
  for (const operation of operations) {
    const tags = operation.operation.tags;
    const tag = Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : 'Other';
    byTag.set(tag, [...(byTag.get(tag) ?? []), operation]);
  }
  const tagDescriptions = new Map(
    (Array.isArray(document.tags) ? document.tags : []).map((t) => [
      textAt(t, 'name') ?? '',
      textAt(t, 'description'),
    ]),
  );

  const contents = [...byTag].map(([tag, list]) =>
    [
      `<li>${escapeHtml(tag)}<ul>`,
      ...list.map(
        (o) =>
          `<li><a href="#${anchor('op', o.id)}"><code>${escapeHtml(`${o.method} ${o.path}`)}</code></a> ${escapeHtml(textAt(o.operation, 'summary') ?? '')}</li>`,
      ),
      '</ul></li>',
    ].join('\n'),
  );

  const groups = [...byTag].map(([tag, list]) =>
    [
      `<section id="${anchor('tag', tag)}">`,
      `<h2>${escapeHtml(tag)}</h2>`,
      prose(tagDescriptions.get(tag)),
      ...list.map((o) => operationSection(document, o)),
      '</section>',
    ]
      .filter((p) => p !== '')
      .join('\n'),
  );

  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${escapeHtml(title)} — reference</title>`,
    // What a search result or a shared link says about the page.
    `<meta name="description" content="${escapeHtml(`${title}: every operation of the HTTP API with its parameters and answers, every problem code and every schema.`)}">`,
    // Named, so that browsers do not ask for /favicon.ico.
    `<link rel="icon" href="${ICON}" type="image/svg+xml">`,
    // A stylesheet of the app's own origin (public/): the CSP allows it where it allows no
    // inline style; without it the page reads the same in the browser's own styles.
    `<link rel="stylesheet" href="${REFERENCE_STYLESHEET}">`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    prose(textAt(info, 'description')),
    `<p>For tools: the same as OpenAPI ${escapeHtml(textAt(document, 'openapi') ?? '')}, <a href="${escapeHtml(WHOLE_LIST_PATHS.openapi)}">${escapeHtml(WHOLE_LIST_PATHS.openapi)}</a>.</p>`,
    '</header>',
    '<nav aria-label="Contents">',
    '<h2>Contents</h2>',
    '<ul>',
    ...contents,
    '<li><a href="#problem-codes">Problem codes</a></li>',
    '<li><a href="#schemas">Schemas</a></li>',
    '</ul>',
    '</nav>',
    '<main>',
    ...groups,
    problemCodesSection(document, operations),
    schemasSection(document),
    '</main>',
    '</body>',
    '</html>',
  ]
    .filter((p) => p !== '')
    .join('\n')
    .concat('\n');
}
