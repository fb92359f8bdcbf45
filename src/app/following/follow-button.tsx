import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { follows, useIsFollowed, type FollowedList } from './follow-store.ts';

// Follow or stop following a list from its view: the button says which the list is now
// ("Follow", "Following"). The server renders "Follow" (it cannot see this browser's follows);
// the button is the last thing on its line, so that the switch after hydration moves nothing.

export function FollowButton({
  kind,
  id,
  title,
}: Pick<FollowedList, 'kind' | 'id'> & { title: string | undefined }) {
  const { t } = useTranslation();
  const followed = useIsFollowed(kind, id);
  return (
    <button
      type="button"
      onClick={() =>
        followed ? follows.remove({ kind, id }) : follows.add([{ kind, id, title: title || id }])
      }
      className={cx(
        'ms-3 inline-flex items-center gap-1 rounded-full border px-3 py-1 text-sm font-semibold',
        followed
          ? 'border-blue-700 bg-blue-700 text-white dark:border-blue-400 dark:bg-blue-400 dark:text-zinc-950'
          : 'border-zinc-400 text-zinc-800 hover:border-zinc-600 dark:border-zinc-600 dark:text-zinc-200',
        FOCUS_RING,
      )}
    >
      <span aria-hidden="true">{followed ? '✓' : '+'}</span>
      {t(followed ? 'following.button.following' : 'following.button.follow')}
    </button>
  );
}
