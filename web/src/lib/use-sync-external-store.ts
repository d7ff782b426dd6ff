// wouter imports the use-sync-external-store shim, written for React 17 and older; React 19 has
// the hook itself, so the build points the shim here (vite.config.ts) and the entry carries no
// second copy of it: docs/performance.md#the-first-load-budget.
export { useSyncExternalStore } from 'react';
