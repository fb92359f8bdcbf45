import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { TEXT_LINK } from './ui/text-link.tsx';

/** Tells screen reader users that a link opens the platform in a new tab. */
function NewTabNote() {
  const { t } = useTranslation();
  return <span className="sr-only">{` ${t('link.opensPlatformInNewTab')}`}</span>;
}

/** A link out to the platform, in a new tab, saying so to screen readers. */
export function PlatformLink({
  href,
  className,
  children,
  onOpen,
}: {
  href: string;
  className: string;
  children: ReactNode;
  /** Followed (a click of any button): the reader's progress counts it as opened. */
  onOpen?: () => void;
}) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      onClick={onOpen}
      onAuxClick={onOpen}
    >
      {children}
      <NewTabNote />
    </a>
  );
}

/** The headers' "Open on YouTube" link. */
export function OpenOnPlatform({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <PlatformLink href={href} className={TEXT_LINK}>
      {t('link.openOnPlatform')}
    </PlatformLink>
  );
}
