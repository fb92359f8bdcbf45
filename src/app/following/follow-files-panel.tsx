import { useId, useState } from 'react';
import { Button } from '../components/ui/button.tsx';
import { cx } from '../components/ui/class-names.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import {
  exportJson,
  exportOpml,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_LISTS,
  type ImportResult,
} from './follow-files.ts';
import { follows, type FollowedList } from './follow-store.ts';
import { progressSection, progressSectionOf } from '../progress/progress-file.ts';
import { mergeProgress, progressStore } from '../progress/progress-store.ts';
import { notSavedSentence } from './store-notice.tsx';

// Import (read in a worker) and export of the follow list, below the Following view.

/** Reads `text` in a worker: a file of any size or shape never holds the page. */
async function readInWorker(text: string): Promise<ImportResult> {
  const worker = new Worker(new URL('./import-worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<ImportResult>((resolve) => {
      worker.onmessage = (event: MessageEvent<ImportResult>) => resolve(event.data);
      worker.onerror = () =>
        resolve({ ok: false, reason: { id: 'following.import.error.unknownFormat' } });
      worker.postMessage(text);
    });
  } finally {
    worker.terminate();
  }
}

export function FollowFilesPanel({ lists }: { lists: readonly FollowedList[] }) {
  const translation = useTranslation();
  const { t } = translation;
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
    const result = await readInWorker(text);
    if (!result.ok) {
      const { id, values } = result.reason;
      const reason =
        id === 'following.import.error.line'
          ? t(id, { line: values?.line, problem: `“${String(values?.problem)}”` })
          : t(id, values);
      return setMessage({ text: t('following.import.error', { reason }), error: true });
    }
    const { added, known, saved } = follows.add(result.lists);
    // This explorer's own file carries the reader's progress too (progress-file.ts): merged
    // list by list, the entry touched last winning.
    const progress = progressSectionOf(text);
    if (progress !== null) progressStore.set((state) => mergeProgress(state, progress));
    if (!saved.ok)
      return setMessage({ text: notSavedSentence(saved.reason, translation), error: true });
    const parts = [t('following.import.done', { added, known })];
    if (result.skipped.count > 0)
      parts.push(
        t('following.import.skipped', {
          count: result.skipped.count,
          names: result.skipped.names.map((name) => `“${name}”`).join(', '),
        }),
      );
    if (result.overCap > 0)
      parts.push(t('following.import.overCap', { count: result.overCap, max: MAX_IMPORT_LISTS }));
    setMessage({ text: parts.join(' '), error: false });
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
          {t('following.import.hint')} {t('following.import.cap', { max: MAX_IMPORT_LISTS })}
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
              onClick={() =>
                download(
                  'following.json',
                  'application/json',
                  exportJson(lists, progressSection(progressStore.get())),
                )
              }
            >
              {t('following.export.json')}
            </Button>
          </div>
        </div>
      )}
    </section>
  );
}
