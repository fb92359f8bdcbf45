// The keyboard focus ring of the app's controls, named once. app.css draws the same ring on
// anything focusable that has no style of its own; a control's own string says it with the rest
// of its look. The buttons, links and fields in this folder carry it; a control of its own shape
// (a tab, a card, the disclosure) adds it, with where the ring sits.

export const FOCUS_RING = 'focus-visible:outline-2 focus-visible:outline-blue-600';

/** Drawn clear of the control: for filled and bordered ones, where a ring on the edge is lost. */
export const FOCUS_RING_OUTSIDE = `${FOCUS_RING} focus-visible:outline-offset-2`;
