import { useLocation } from 'react-router';
import { homePath } from '../../shared/app-routes.ts';
import { ButtonLink } from '../components/ui/button.tsx';
import { useStaticViewScroll } from '../hooks/use-entry-scroll.ts';

export function NotFoundView({
  heading,
  children,
}: {
  heading: string;
  children: React.ReactNode;
}) {
  useStaticViewScroll();
  return (
    <section className="mx-auto my-12 max-w-xl text-center">
      <title>{`${heading} · Catalogue Explorer`}</title>
      <h1 className="text-2xl font-semibold text-zinc-900 dark:text-zinc-50">{heading}</h1>
      <div className="mt-3 text-zinc-700 break-words dark:text-zinc-300">{children}</div>
      <ButtonLink to={homePath()} size="md" className="mt-6">
        Go to the home page
      </ButtonLink>
    </section>
  );
}

export function NotFoundRoute() {
  const location = useLocation();
  return (
    <NotFoundView heading="Page not found">
      <p>
        There is no page at{' '}
        <code className="rounded bg-zinc-100 px-1 dark:bg-zinc-800">{location.pathname}</code>. Open
        a playlist or channel from the home page.
      </p>
    </NotFoundView>
  );
}
