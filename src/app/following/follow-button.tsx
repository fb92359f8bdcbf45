import { useState } from 'react';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { follows, useIsFollowed, type FollowedList, type SaveFailure } from './follow-store.ts';
import { notSavedSentence } from './store-notice.tsx';

// Follow or stop following a list from its view: the button says which the list is now
// ("Follow", "Following"). The server renders "Follow" (it cannot see this browser's follows);
// the button is the last thing on its line, so that the switch after hydration moves nothing.
// Its height and its place on the line are set, not left to its text: a document painted while
// it is still arriving can show the button empty, whose baseline is its bottom edge, and the
// line must not change when its label comes.
// A change this browser would not keep (storage full or off, a store of a newer version) is
// not shown as made: the button stays as it was and says why, below.

export function FollowButton({
  kind,
  id,
  title,
}: Pick<FollowedList, 'kind' | 'id'> & { title: string | undefined }) {
  const translation = useTranslation();
  const { t } = translation;
  const followed = useIsFollowed(kind, id);
  const [failure, setFailure] = useState<SaveFailure | null>(null);
  const toggle = () => {
    const outcome = followed
      ? follows.remove({ kind, id })
      : follows.add([{ kind, id, title: title || id }]).saved;
    setFailure(outcome.ok ? null : outcome.reason);
  };
  return (
    <>
      <button
        type="button"
        onClick={toggle}
        className={cx(
          'ms-3 inline-flex min-h-7.5 items-center align-middle gap-1 rounded-full border px-3 py-1 text-sm font-semibold',
          followed
            ? 'border-blue-700 bg-blue-700 text-white dark:border-blue-400 dark:bg-blue-400 dark:text-zinc-950'
            : 'border-zinc-400 text-zinc-800 hover:border-zinc-600 dark:border-zinc-600 dark:text-zinc-200',
          FOCUS_RING,
        )}
      >
        <span aria-hidden="true">{followed ? '✓' : '+'}</span>
        {t(followed ? 'following.button.following' : 'following.button.follow')}
      </button>
      {failure !== null && (
        <span
          role="alert"
          className="mt-1 block text-sm font-normal text-red-700 dark:text-red-400"
        >
          {notSavedSentence(failure, translation)}
        </span>
      )}
    </>
  );
}
