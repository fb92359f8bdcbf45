import { Trans } from '@lingui/react';
import { useLocation } from 'react-router';
import { homePath } from '../../shared/app-routes.ts';
import { ButtonLink } from '../components/ui/button.tsx';
import { useStaticViewScroll } from '../hooks/use-entry-scroll.ts';
import { useTranslation } from '../i18n/use-translation.ts';

export function NotFoundView({
  heading,
  children,
}: {
  heading: string;
  children: React.ReactNode;
}) {
  useStaticViewScroll();
  const { t } = useTranslation();
  return (
    <section className="mx-auto my-12 max-w-xl text-center">
      <title>{t('title.withSite', { title: heading })}</title>
      <h1 className="text-2xl font-semibold text-zinc-900 dark:text-zinc-50">{heading}</h1>
      <div className="mt-3 text-zinc-700 break-words dark:text-zinc-300">{children}</div>
      <ButtonLink to={homePath()} size="md" className="mt-6">
        {t('view.goHome')}
      </ButtonLink>
    </section>
  );
}

export function NotFoundRoute() {
  const location = useLocation();
  const { t } = useTranslation();
  return (
    <NotFoundView heading={t('view.notFound.heading')}>
      <p>
        <Trans
          id="view.notFound.detail"
          values={{
            path: (
              // A path reads left to right, whatever the sentence around it.
              <code dir="ltr" className="rounded bg-zinc-100 px-1 dark:bg-zinc-800">
                {location.pathname}
              </code>
            ),
          }}
        />
      </p>
    </NotFoundView>
  );
}
