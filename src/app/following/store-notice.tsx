import { Button } from '../components/ui/button.tsx';
import { useTranslation, type Translation } from '../i18n/use-translation.ts';
import { follows, type FollowState, type SaveFailure } from './follow-store.ts';

// What the Following view says about the store itself, above the lists: a change that was not
// kept (and what to do), a store this version only reads, entries it had to skip.

/** "Not saved: …", with what the reader can do about it. */
export function notSavedSentence(reason: SaveFailure, { t }: Translation): string {
  switch (reason) {
    case 'full':
      return t('following.notSaved.full');
    case 'unavailable':
      return t('following.notSaved.unavailable');
    case 'newer':
      return t('following.notSaved.newer');
    case 'unreadable':
      return t('following.notSaved.unreadable');
  }
}

export function StoreNotice({ state }: { state: FollowState }) {
  const translation = useTranslation();
  const { t } = translation;
  const { failure, mode, damaged } = state;
  if (failure === null && mode === 'writable' && damaged.length === 0) return null;
  return (
    <div className="mt-4 space-y-2">
      {failure !== null && (
        <p
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {notSavedSentence(failure.reason, translation)}{' '}
          <button type="button" className="underline" onClick={() => follows.dismissFailure()}>
            {t('following.notice.dismiss')}
          </button>
        </p>
      )}
      {mode === 'newer' && failure === null && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t('following.notice.newer')}
        </p>
      )}
      {mode === 'unreadable' && (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          <p>{t('following.notice.unreadable')}</p>
          <Button
            size="sm"
            variant="secondary"
            className="mt-2"
            onClick={() => follows.startAgain()}
          >
            {t('following.notice.startAgain')}
          </Button>
        </div>
      )}
      {damaged.length > 0 && (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {t('following.notice.damaged', { count: damaged.length })}
        </p>
      )}
    </div>
  );
}
