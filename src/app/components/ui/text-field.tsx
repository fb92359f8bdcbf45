import type { ComponentProps } from 'react';
import { cx } from './class-names.ts';
import { FOCUS_RING } from './focus-ring.ts';

// Fields: text, search and number inputs, and selects. `sm` in the dense Whole list panel;
// `lg` for the home page's one box, which also marks itself invalid.

export type FieldSize = 'sm' | 'lg';

const SIZES: Record<FieldSize, string> = {
  sm: 'px-2 py-1.5 text-sm dark:bg-zinc-950 dark:text-zinc-100',
  lg: 'px-3 py-2 placeholder:text-zinc-500 focus-visible:outline-offset-1 aria-invalid:border-red-600 dark:bg-zinc-900 dark:text-zinc-50',
};

function fieldClass(size: FieldSize): string {
  return cx(
    'rounded-md border border-zinc-400 bg-white text-zinc-900 dark:border-zinc-600',
    FOCUS_RING,
    SIZES[size],
  );
}

export function TextInput({
  size = 'sm',
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'size'> & { size?: FieldSize }) {
  return <input className={cx(fieldClass(size), className)} {...props} />;
}

export function Select({
  size = 'sm',
  className,
  ...props
}: Omit<ComponentProps<'select'>, 'size'> & { size?: FieldSize }) {
  return <select className={cx(fieldClass(size), className)} {...props} />;
}
