import { useEffect, useRef } from 'react';
import type { MessageId } from '../../shared/i18n/message-id.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { buttonClass } from './ui/button.tsx';

// The list's keys, shown by `?` on a row. A modal <dialog>: the browser keeps focus inside it,
// closes it on Escape and gives the focus back to the row that opened it.

// A key is printed as a symbol (the same on every keyboard) or named by a message, as the
// locale's keyboards print it (Bild ab, Pos1, Entrée).
type Key = { symbol: string } | { named: MessageId };

const KEYS: ReadonlyArray<{ keys: readonly Key[]; what: MessageId }> = [
  { keys: [{ symbol: 'j' }, { symbol: '↓' }], what: 'keys.next' },
  { keys: [{ symbol: 'k' }, { symbol: '↑' }], what: 'keys.previous' },
  { keys: [{ named: 'keys.key.pageDown' }], what: 'keys.pageDown' },
  { keys: [{ named: 'keys.key.pageUp' }], what: 'keys.pageUp' },
  { keys: [{ named: 'keys.key.home' }], what: 'keys.first' },
  { keys: [{ named: 'keys.key.end' }], what: 'keys.last' },
  { keys: [{ named: 'keys.key.enter' }], what: 'keys.open' },
  { keys: [{ symbol: '/' }], what: 'keys.find' },
  { keys: [{ symbol: '?' }], what: 'keys.help' },
];

export function KeysOverlay({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby="keys-overlay-title"
      onClose={onClose}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-lg border border-zinc-300 bg-white p-5 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id="keys-overlay-title" className="mb-3 text-lg font-semibold">
        {t('keys.title')}
      </h2>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {KEYS.map(({ keys, what }) => (
          <div key={what} className="contents">
            <dt className="flex gap-1 whitespace-nowrap">
              {keys.map((key) => (
                <kbd
                  key={'symbol' in key ? key.symbol : key.named}
                  dir="ltr"
                  className="rounded border border-zinc-300 bg-zinc-100 px-1.5 font-mono text-xs leading-5 dark:border-zinc-600 dark:bg-zinc-800"
                >
                  {'symbol' in key ? key.symbol : t(key.named)}
                </kbd>
              ))}
            </dt>
            <dd>{t(what)}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">{t('keys.tabNote')}</p>
      <form method="dialog" className="mt-4 flex justify-end">
        <button type="submit" className={buttonClass('secondary', 'sm')}>
          {t('keys.close')}
        </button>
      </form>
    </dialog>
  );
}
