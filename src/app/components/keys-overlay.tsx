import { useEffect, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { buttonClass } from './ui/button.tsx';

// The list's keys, shown by `?` on a row. A modal <dialog>: the browser keeps focus inside it,
// closes it on Escape and gives the focus back to the row that opened it.

const KEYS = [
  { keys: ['j', '↓'], what: 'keys.next' },
  { keys: ['k', '↑'], what: 'keys.previous' },
  { keys: ['Page Down'], what: 'keys.pageDown' },
  { keys: ['Page Up'], what: 'keys.pageUp' },
  { keys: ['Home'], what: 'keys.first' },
  { keys: ['End'], what: 'keys.last' },
  { keys: ['Enter'], what: 'keys.open' },
  { keys: ['/'], what: 'keys.find' },
  { keys: ['?'], what: 'keys.help' },
] as const;

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
                // Key names stay as printed on the keyboard, in every locale.
                <kbd
                  key={key}
                  dir="ltr"
                  className="rounded border border-zinc-300 bg-zinc-100 px-1.5 font-mono text-xs leading-5 dark:border-zinc-600 dark:bg-zinc-800"
                >
                  {key}
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
