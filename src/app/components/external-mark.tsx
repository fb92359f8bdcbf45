/** Tells screen reader users that a link opens the platform in a new tab. */
export function NewTabNote() {
  return <span className="sr-only"> (opens YouTube in a new tab)</span>;
}
