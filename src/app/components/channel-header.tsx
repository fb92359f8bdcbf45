import { Link } from 'react-router';
import { FollowButton } from '../following/follow-button.tsx';
import { channelPath, type ChannelTab } from '../../shared/app-routes.ts';
import type { MessageId } from '../../shared/i18n/message-id.ts';
import { platformChannelUrl } from '../../shared/platform-links.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { OpenOnPlatform } from './external-mark.tsx';
import { cx } from './ui/class-names.ts';
import { FOCUS_RING } from './ui/focus-ring.ts';

/**
 * Each tab's name: its link, its list's accessible name and part of the page title (which the
 * server writes from the same message).
 */
export const CHANNEL_TAB_LABEL: Record<ChannelTab, MessageId> = {
  videos: 'channel.tab.videos',
  playlists: 'channel.tab.playlists',
};

const TABS = Object.keys(CHANNEL_TAB_LABEL) as ChannelTab[];

/** No endpoint describes a channel: the title is one the app has seen, else the ID. */
export function ChannelHeader({
  id,
  title,
  tab,
}: {
  id: string;
  title: string | undefined;
  tab: ChannelTab;
}) {
  const { t } = useTranslation();
  return (
    <header className="pt-5">
      <h1 className="text-xl font-bold break-words text-zinc-900 sm:text-2xl dark:text-zinc-50">
        <bdi>{title ?? id}</bdi>
      </h1>
      {/* The ID after the link: a name this browser remembers, and the server did not know,
          adds it once the app has taken over, and nothing before it moves. */}
      <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
        <OpenOnPlatform href={platformChannelUrl(id)} />
        {title && (
          <span
            dir="ltr"
            className="ms-2 font-mono text-xs break-all text-zinc-600 dark:text-zinc-400"
          >
            {id}
          </span>
        )}
        <FollowButton kind="channel" id={id} title={title} />
      </p>
      <nav
        aria-label={t('channel.sections.label')}
        className="mt-4 border-b border-zinc-200 dark:border-zinc-800"
      >
        <ul className="flex gap-1">
          {TABS.map((each) => (
            <li key={each}>
              <Link
                to={channelPath(id, each)}
                aria-current={each === tab ? 'page' : undefined}
                // The ring inside the tab: the tab row's border runs along its outside.
                className={cx(
                  '-mb-px inline-block border-b-2 px-4 py-2 text-sm font-semibold focus-visible:-outline-offset-2',
                  FOCUS_RING,
                  each === tab
                    ? 'border-blue-700 text-blue-800 dark:border-blue-400 dark:text-blue-300'
                    : 'border-transparent text-zinc-700 hover:border-zinc-400 dark:text-zinc-300',
                )}
              >
                {t(CHANNEL_TAB_LABEL[each])}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
