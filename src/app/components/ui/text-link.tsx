import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { cx } from './class-names.ts';
import { FOCUS_RING } from './focus-ring.ts';

// Links in running text, and buttons that read as such a link (Show more, Clear, Try again):
// blue, underlined under the pointer. Callers add size and weight.

export const TEXT_LINK = cx('text-blue-700 hover:underline dark:text-blue-400', FOCUS_RING);

/** A link in the app, in text. */
export function TextLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link className={cx(TEXT_LINK, className)} {...props} />;
}

/** A button that reads as a link in text. */
export function TextButton({ type = 'button', className, ...props }: ComponentProps<'button'>) {
  return <button type={type} className={cx(TEXT_LINK, className)} {...props} />;
}
