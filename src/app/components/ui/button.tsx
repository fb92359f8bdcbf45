import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { cx } from './class-names.ts';
import { FOCUS_RING_OUTSIDE } from './focus-ring.ts';

// Buttons, and links that look like them. `primary` is the action a place offers (filled);
// `secondary` the ones beside it (outlined). Sizes: `sm` in the dense Whole list panel, `md`
// in a view's messages, `lg` beside the home page's large field.

export type ButtonVariant = 'primary' | 'secondary';
export type ButtonSize = 'sm' | 'md' | 'lg';

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'bg-blue-700 text-white hover:bg-blue-800 disabled:bg-zinc-400 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400 dark:disabled:bg-zinc-600',
  secondary:
    'border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-100 disabled:opacity-50 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  lg: 'px-5 py-2',
};

/** A button's classes, for an element the components below do not cover (a download link). */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md'): string {
  return cx(
    'inline-flex items-center justify-center rounded-md font-semibold disabled:cursor-not-allowed',
    FOCUS_RING_OUTSIDE,
    VARIANTS[variant],
    SIZES[size],
  );
}

interface Look {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A button; `type` is "button" unless it submits a form. */
export function Button({
  variant,
  size,
  type = 'button',
  className,
  ...props
}: ComponentProps<'button'> & Look) {
  return <button type={type} className={cx(buttonClass(variant, size), className)} {...props} />;
}

/** A link in the app that looks like a button. */
export function ButtonLink({
  variant,
  size,
  className,
  ...props
}: ComponentProps<typeof Link> & Look) {
  return <Link className={cx(buttonClass(variant, size), className)} {...props} />;
}
