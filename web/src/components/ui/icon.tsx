import { cn } from '../../lib/cn';

/** Line icons drawn in one 24×24 grid, in the current text colour; decoration only. */
export const iconPaths = {
  arrowLeft: 'M19 12H5m7 7-7-7 7-7',
  arrowUp: 'M12 19V5m-7 7 7-7 7 7',
  chevronDown: 'm6 9 6 6 6-6',
  rss: 'M4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16M5 19h.01',
  share: 'M12 3v12m-4-8 4-4 4 4M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7',
} as const;

export function Icon({ path, className, strokeWidth = 2 }: { path: string; className?: string; strokeWidth?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={cn('size-5', className)}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={path} />
    </svg>
  );
}
