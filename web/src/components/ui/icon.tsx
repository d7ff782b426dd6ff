import { cn } from '../../lib/cn';

/** Line icons drawn in one 24×24 grid, in the current text colour; decoration only. */
export const iconPaths = {
  arrowLeft: 'M19 12H5m7 7-7-7 7-7',
  arrowUp: 'M12 19V5m-7 7 7-7 7 7',
  chevronDown: 'm6 9 6 6 6-6',
  rss: 'M4 11a9 9 0 0 1 9 9M4 4a16 16 0 0 1 16 16M5 19h.01',
  share: 'M12 3v12m-4-8 4-4 4 4M5 12v7a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-7',
} as const;

/** Icon sizes: 16, 18, 20 (the default) and 32 px. */
const iconSizes = { sm: 'size-4', md: 'size-[18px]', base: 'size-5', xl: 'size-8' } as const;
export type IconSize = keyof typeof iconSizes;

/** The icon's classes: its size, then `className` for anything but size (see lib/cn.ts). */
export const iconClass = (size: IconSize = 'base', className?: string) => cn(iconSizes[size], className);

export function Icon({
  path,
  size,
  className,
  strokeWidth = 2,
}: {
  path: string;
  size?: IconSize;
  className?: string;
  strokeWidth?: number;
}) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={iconClass(size, className)}
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
