// The Whole list feature (load all, totals, find, sort, charts and export over a list view):
// the one module the rest of the app imports from it (lint holds code outside this folder to it).
// A view keeps the panel's state with `useWholeList` and renders `WholeListSlot`; the panel's own
// code is a chunk that the slot downloads the first time the panel opens.

export { WholeListSlot } from './whole-list-slot.tsx';
export { useWholeList, type WholeListHost } from './hooks/use-whole-list.ts';
export { useExactTimeFrom } from './hooks/use-exact-time-from.ts';
