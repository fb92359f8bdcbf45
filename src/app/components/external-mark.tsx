import type { ReactNode } from 'react';
import { TEXT_LINK } from './ui/text-link.tsx';

/** Tells screen reader users that a link opens the platform in a new tab. */
function NewTabNote() {
  return <span className="sr-only"> (opens YouTube in a new tab)</span>;
}

/** A link out to the platform, in a new tab, saying so to screen readers. */
export function PlatformLink({
  href,
  className,
  children,
}: {
  href: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <NewTabNote />
    </a>
  );
}

/** The headers' "Open on YouTube" link. */
export function OpenOnPlatform({ href }: { href: string }) {
  return (
    <PlatformLink href={href} className={TEXT_LINK}>
      Open on YouTube
    </PlatformLink>
  );
}
