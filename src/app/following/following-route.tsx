import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { Button } from '../components/ui/button.tsx';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { useHydrated } from '../hooks/use-hydrated.ts';
import { useTranslation, type Translation } from '../i18n/use-translation.ts';
import { failureSentence } from '../lib/problem-text.ts';
import { exportJson, exportOpml, MAX_IMPORT_BYTES, type ImportResult } from './follow-files.ts';
import { follows, useFollows, type FollowedList } from './follow-store.ts';
import { compare, refreshAll, seenOf, type FeedEntry, type ListUpdate } from './list-updates.ts';

// `/following`: what is new in every list the reader follows, grouped by list, each in its own
// order (list-updates.ts reads them). New items since the last visit are marked; the visit
// counts as seen when the reader leaves the page or marks it so. Import and export of the
// follow list sit below it.

type Result =
  | { state: 'done'; update: ListUpdate; entries: FeedEntry[]; lookups: number }
  | { state: 'failed'; error: unknown };

const keyOf = (list: Pick<FollowedList, 'kind' | 'id'>) => `${list.kind} ${list.id}`;
const SHOWN = 5;

export function FollowingRoute() {
  const translation = useTranslation();
  const { t } = translation;
  const hydrated = useHydrated();
  const lists = useFollows();
  const [results, setResults] = useState(new Map<string, Result>());
  const [paused, setPaused] = useState<number | null>(null);
  const refreshing = useRef<AbortController | null>(null);

  // Baselines of lists never seen before, written together once the answers of a moment are in.
  const baselines = useRef<Parameters<typeof follows.markSeen>[0][number][]>([]);
  const noteBaseline = (list: FollowedList, entries: FeedEntry[], title: string) => {
    if (baselines.current.length === 0)
      setTimeout(() => follows.markSeen(baselines.current.splice(0)), 0);
    baselines.current.push({ list, seen: seenOf(entries), title });
  };

  /** Reads every list again; a list shows as loading until its answer is in. */
  const start = useCallback(() => {
    refreshing.current?.abort();
    const controller = new AbortController();
    refreshing.current = controller;
    void refreshAll(follows.get(), controller.signal, {
      onList(list, result) {
        let next: Result;
        if ('error' in result) next = { state: 'failed', error: result.error };
        else {
          next = {
            state: 'done',
            update: compare(result.entries, result.title, list.seen),
            entries: result.entries,
            lookups: result.lookups,
          };
          // A list never seen before: this visit is where "new" starts from.
          if (list.seen === null) noteBaseline(list, result.entries, result.title);
        }
        setResults((map) => new Map(map).set(keyOf(list), next));
      },
      onPause: setPaused,
    });
  }, []);
  const refresh = () => {
    setResults(new Map());
    start();
  };

  const markAllSeen = useCallback(() => {
    const marks = [];
    for (const list of follows.get()) {
      const result = results.get(keyOf(list));
      if (result?.state === 'done')
        marks.push({ list, seen: seenOf(result.entries), title: result.update.title });
    }
    follows.markSeen(marks);
  }, [results]);

  // Refreshed on arrival; what was shown counts as seen once the reader leaves.
  useEffect(() => {
    if (hydrated) start();
    return () => refreshing.current?.abort();
  }, [hydrated, start]);
  const leave = useRef(markAllSeen);
  useEffect(() => {
    leave.current = markAllSeen;
  });
  useEffect(() => {
    const onHide = () => leave.current();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, []);

  const done = lists.filter((list) => results.has(keyOf(list))).length;
  return (
    <div className="py-6">
      <title>{t('title.withSite', { title: t('following.title') })}</title>
      <h1 className="text-2xl font-bold text-zinc-900 dark:text-zinc-50">
        {t('following.heading')}
      </h1>
      {!hydrated ? (
        <p role="status" className="mt-4 text-zinc-600 dark:text-zinc-400">
          {t('app.loading')}
        </p>
      ) : lists.length === 0 ? (
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">{t('following.empty')}</p>
      ) : (
        <>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button size="sm" onClick={refresh}>
              {t('following.refresh')}
            </Button>
            <Button size="sm" variant="secondary" onClick={markAllSeen}>
              {t('following.markSeen')}
            </Button>
            <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
              {paused !== null
                ? t('following.paused', {
                    wait: translation.formatWait(paused),
                    done,
                    total: lists.length,
                  })
                : done < lists.length
                  ? t('following.progress', { done, total: lists.length })
                  : null}
            </p>
          </div>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            {t('following.cost', { lists: lists.length })}
          </p>
          <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">{t('following.order')}</p>
          <ul className="mt-4 space-y-4">
            {lists.map((list) => (
              <ListCard key={keyOf(list)} list={list} result={results.get(keyOf(list))} />
            ))}
          </ul>
        </>
      )}
      {hydrated && <FollowFiles lists={lists} />}
    </div>
  );
}

function ListCard({ list, result }: { list: FollowedList; result: Result | undefined }) {
  const translation = useTranslation();
  const { t } = translation;
  const update = result?.state === 'done' ? result.update : null;
  const path = list.kind === 'playlist' ? playlistPath(list.id) : channelPath(list.id);
  const title = update?.title || list.title;
  return (
    <li className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          {t(list.kind === 'playlist' ? 'following.kind.playlist' : 'following.kind.channel')}
        </span>
        <Link
          to={path}
          className={cx(
            'min-w-0 font-semibold break-words text-blue-700 hover:underline dark:text-blue-400',
            FOCUS_RING,
          )}
        >
          <bdi>{title}</bdi>
        </Link>
        {update && <Counts update={update} kind={list.kind} translation={translation} />}
        {result?.state === 'done' && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            {t('following.listCost', { lookups: result.lookups })}
          </span>
        )}
        <button
          type="button"
          onClick={() => follows.remove(list)}
          aria-label={t('following.remove', { title })}
          className={cx(
            'ms-auto rounded px-2 text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            FOCUS_RING,
          )}
        >
          ×
        </button>
      </div>
      {result?.state === 'failed' && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">
          {t('following.failed', { problem: failureSentence(result.error, translation) })}
        </p>
      )}
      {update && (
        <ol className="mt-2 space-y-1">
          {orderForReading(update).map((entry) => (
            <li
              key={`${entry.videoId} ${entry.position}`}
              className="flex items-baseline gap-2 text-sm"
            >
              {update.fresh.has(entry.videoId) ? (
                <span className="shrink-0 rounded bg-blue-700 px-1.5 text-xs font-semibold text-white dark:bg-blue-400 dark:text-zinc-950">
                  {t('following.newBadge')}
                </span>
              ) : null}
              {entry.position !== null && (
                <span
                  dir="ltr"
                  className="shrink-0 text-xs text-zinc-600 tabular-nums dark:text-zinc-400"
                >
                  #{translation.formatCount(entry.position)}
                </span>
              )}
              <a
                href={entry.watch}
                target="_blank"
                rel="noopener noreferrer"
                className={cx(
                  'min-w-0 truncate text-zinc-900 hover:underline dark:text-zinc-100',
                  FOCUS_RING,
                )}
              >
                <bdi>{entry.title}</bdi>
              </a>
            </li>
          ))}
        </ol>
      )}
      {result === undefined && (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('app.loading')}</p>
      )}
    </li>
  );
}

/** New entries first (in the list's order), then the rest, a few in all. */
function orderForReading(update: ListUpdate): FeedEntry[] {
  const fresh = update.entries.filter((e) => update.fresh.has(e.videoId));
  const rest = update.entries.filter((e) => !update.fresh.has(e.videoId));
  return [...fresh, ...rest].slice(0, Math.max(SHOWN, fresh.length));
}

function Counts({
  update,
  kind,
  translation: { t },
}: {
  update: ListUpdate;
  kind: FollowedList['kind'];
  translation: Translation;
}) {
  const parts: string[] = [];
  if (update.fresh.size > 0)
    parts.push(
      t(kind === 'playlist' ? 'following.added' : 'following.new', { count: update.fresh.size }),
    );
  if (update.gone > 0) parts.push(t('following.gone', { count: update.gone }));
  return (
    <span className="text-sm text-zinc-700 dark:text-zinc-300">
      {parts.length > 0 ? parts.join(' · ') : t('following.noChange')}
    </span>
  );
}

/** Import (read in a worker) and export of the follow list. */
function FollowFiles({ lists }: { lists: FollowedList[] }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const importFile = async (file: File) => {
    if (file.size > MAX_IMPORT_BYTES) {
      const reason = t('following.import.error.tooBig', {
        megabytes: MAX_IMPORT_BYTES / 1024 / 1024,
      });
      return setMessage({ text: t('following.import.error', { reason }), error: true });
    }
    const text = await file.text();
    const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' });
    const result = await new Promise<ImportResult>((resolve) => {
      worker.onmessage = (event: MessageEvent<ImportResult>) => resolve(event.data);
      worker.onerror = () =>
        resolve({ ok: false, reason: { id: 'following.import.error.unknownFormat' } });
      worker.postMessage(text);
    });
    worker.terminate();
    if (!result.ok) {
      const { id, values } = result.reason;
      const reason =
        id === 'following.import.error.line'
          ? t(id, { line: values?.line, problem: `“${String(values?.problem)}”` })
          : t(id, values);
      return setMessage({ text: t('following.import.error', { reason }), error: true });
    }
    const added = follows.add(result.lists);
    setMessage({
      text: t('following.import.done', { added, known: result.lists.length - added }),
      error: false,
    });
  };

  const download = (name: string, type: string, body: string) => {
    const url = URL.createObjectURL(new Blob([body], { type }));
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <section className="mt-10 grid gap-6 border-t border-zinc-200 pt-6 sm:grid-cols-2 dark:border-zinc-800">
      <div>
        <h2 className="font-semibold text-zinc-900 dark:text-zinc-50">
          {t('following.import.heading')}
        </h2>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          {t('following.import.hint')}
        </p>
        <label
          htmlFor={inputId}
          className="mt-3 block text-sm font-medium text-zinc-800 dark:text-zinc-200"
        >
          {t('following.import.label')}
        </label>
        <input
          id={inputId}
          type="file"
          accept=".opml,.xml,.json,.csv,text/csv,application/json,text/xml,text/x-opml"
          className="mt-1 block w-full text-sm text-zinc-700 file:me-3 file:rounded-md file:border file:border-zinc-400 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold dark:text-zinc-300 dark:file:bg-zinc-900"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void importFile(file);
            event.target.value = '';
          }}
        />
        {message && (
          <p
            role={message.error ? 'alert' : 'status'}
            className={cx(
              'mt-2 text-sm',
              message.error ? 'text-red-700 dark:text-red-400' : 'text-zinc-700 dark:text-zinc-300',
            )}
          >
            {message.text}
          </p>
        )}
      </div>
      {lists.length > 0 && (
        <div>
          <h2 className="font-semibold text-zinc-900 dark:text-zinc-50">
            {t('following.export.heading')}
          </h2>
          <div className="mt-3 flex flex-wrap gap-3">
            <Button
              size="sm"
              variant="secondary"
              onClick={() =>
                download('following.opml', 'text/x-opml', exportOpml(lists, window.location.origin))
              }
            >
              {t('following.export.opml')}
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => download('following.json', 'application/json', exportJson(lists))}
            >
              {t('following.export.json')}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
