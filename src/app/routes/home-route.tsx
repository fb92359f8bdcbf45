import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { demoEntriesOptions } from '../api/catalogue-queries.ts';
import { Button } from '../components/ui/button.tsx';
import { cx } from '../components/ui/class-names.ts';
import { MessageText } from '../components/message-text.tsx';
import { FOCUS_RING_OUTSIDE } from '../components/ui/focus-ring.ts';
import { TextInput } from '../components/ui/text-field.tsx';
import { TextButton } from '../components/ui/text-link.tsx';
import { useStaticViewScroll } from '../hooks/use-entry-scroll.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { clearRecentViews, useRecentViews } from '../lib/recent-views.ts';
import { pathFor, readUserInput, type TargetMessage } from '../../shared/view-target.ts';

// `/`: one box that opens a playlist or channel from an ID or a pasted link, the
// demo catalogue's entries when the server has them, and the views opened recently.

/** The hint's examples: an ID of each kind and a link, as typed (not translated). */
const EXAMPLES = {
  playlist: 'PLcatalogueDemoPlaylist5000items00',
  channel: 'UCcatalogueDemoChannel01',
  link: 'https://www.youtube.com/playlist?list=…',
};

export function HomeRoute() {
  useStaticViewScroll();
  const { t } = useTranslation();
  return (
    <div className="py-8">
      <title>{t('app.name')}</title>
      <h1 className="text-2xl font-bold text-zinc-900 sm:text-3xl dark:text-zinc-50">
        {t('home.heading')}
      </h1>
      <p className="mt-2 max-w-prose text-zinc-700 dark:text-zinc-300">{t('home.intro')}</p>
      <OpenForm />
      <RecentViews />
      <DemoEntries />
    </div>
  );
}

/** The explorer's own host, whose links the box opens too (the server's render has none). */
const ownHost = () => (typeof window === 'undefined' ? undefined : window.location.host);

/**
 * What the box was sent with before the app took over (`/?target=`): the server opens what it
 * can, so one that comes back here could not be opened, and says why.
 */
function useSubmittedTarget(): { value: string; message: TargetMessage | null } {
  const [search] = useSearchParams();
  const [submitted] = useState(() => {
    const target = search.get('target');
    if (target === null) return { value: '', message: null };
    const read = readUserInput(target, ownHost());
    return { value: target, message: read.ok ? null : read.message };
  });
  return submitted;
}

function OpenForm() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  const submitted = useSubmittedTarget();
  const [value, setValue] = useState(submitted.value);
  // The message, not its text: it follows the reader's language if they change it.
  const [message, setMessage] = useState<TargetMessage | null>(submitted.message);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readUserInput(value, ownHost());
    if (read.ok) {
      setMessage(null);
      void navigate(pathFor(read.target));
    } else {
      setMessage(read.message);
    }
  };

  return (
    // Without scripts (or before they run) the browser sends the box to the server itself, as
    // `GET /?target=`, which opens the view or sends this page back with the reason.
    <form action="/" method="get" onSubmit={onSubmit} noValidate className="mt-6 max-w-2xl">
      <label htmlFor={inputId} className="block font-semibold text-zinc-900 dark:text-zinc-50">
        {t('home.open.label')}
      </label>
      <p id={hintId} className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        <MessageText id="home.open.hint" values={EXAMPLES} />
      </p>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <TextInput
          size="lg"
          id={inputId}
          name="target"
          type="text"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          // IDs and links read left to right, whatever the page's direction.
          dir="ltr"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          aria-invalid={message !== null}
          aria-describedby={message !== null ? `${errorId} ${hintId}` : hintId}
          className="min-w-0 flex-1"
        />
        <Button type="submit" size="lg">
          {t('home.open.submit')}
        </Button>
      </div>
      <p
        id={errorId}
        role="alert"
        className="mt-2 min-h-6 text-sm font-medium text-red-700 dark:text-red-400"
      >
        {message && <MessageText id={message.id} values={message.values} />}
      </p>
    </form>
  );
}

const cardLink = cx(
  'block h-full rounded-lg border border-zinc-200 p-3 hover:border-zinc-400 hover:bg-zinc-50 dark:border-zinc-800 dark:hover:border-zinc-600 dark:hover:bg-zinc-900',
  FOCUS_RING_OUTSIDE,
);

function KindTag({ kind }: { kind: 'playlist' | 'channel' }) {
  const { t } = useTranslation();
  return (
    <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
      {t(kind === 'playlist' ? 'home.kind.playlist' : 'home.kind.channel')}
    </span>
  );
}

function RecentViews() {
  const { t } = useTranslation();
  const recent = useRecentViews();
  if (recent.length === 0) return null;
  return (
    <section aria-labelledby="recent-heading" className="mt-8">
      <div className="flex items-baseline justify-between gap-4">
        <h2 id="recent-heading" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
          {t('home.recent.heading')}
        </h2>
        <TextButton onClick={clearRecentViews} className="rounded text-sm">
          {t('home.recent.clear')}
        </TextButton>
      </div>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {recent.map((view) => (
          <li key={`${view.kind}:${view.id}`}>
            <Link to={view.path} className={cardLink}>
              <KindTag kind={view.kind} />
              <span className="block truncate font-medium text-zinc-900 dark:text-zinc-50">
                {view.title}
              </span>
              {view.title !== view.id && (
                <span className="block truncate font-mono text-xs text-zinc-600 dark:text-zinc-400">
                  <bdi>{view.id}</bdi>
                </span>
              )}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DemoEntries() {
  const { t } = useTranslation();
  const { data } = useQuery(demoEntriesOptions());
  // Absent (404) when the server is not backed by the embedded catalogue: nothing to show.
  if (!data || data.length === 0) return null;
  return (
    <section aria-labelledby="demo-heading" className="mt-8">
      <h2 id="demo-heading" className="text-lg font-semibold text-zinc-900 dark:text-zinc-50">
        {t('home.demo.heading')}
      </h2>
      <ul className="mt-3 grid gap-3 sm:grid-cols-2">
        {data.map((entry) => (
          <li key={`${entry.kind}:${entry.id}`}>
            <Link
              to={entry.kind === 'playlist' ? playlistPath(entry.id) : channelPath(entry.id)}
              className={cardLink}
            >
              <KindTag kind={entry.kind} />
              <span className="block font-medium text-zinc-900 dark:text-zinc-50">
                {entry.title}
              </span>
              <span className="block text-sm text-zinc-700 dark:text-zinc-300">
                {entry.description}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
