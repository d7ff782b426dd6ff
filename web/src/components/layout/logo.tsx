import { siteConfig } from '../../config/site-config';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';

/** Logo sizes: the header's (28 px, 32 px from 768 px), the footer's 32 px, the tutorial's 56 px,
 * the landing page's hero (80 px, 96 px from 768 px). */
const logoSizes = {
  header: 'size-7 md:size-8',
  base: 'size-8',
  large: 'size-14',
  hero: 'size-20 md:size-24',
} as const;

/** The logo's classes: its size, then `className` for where it sits (see lib/cn.ts). */
export const logoClass = (size: keyof typeof logoSizes = 'base', className?: string) => cn(logoSizes[size], className);

/**
 * The product's logo, drawn from the one copy index.html carries (`#site-logo`): a picture file
 * would be a request on the page's connection before any screen's own pictures
 * (docs/performance.md#the-largest-paint-of-each-screen). `decorative` where text beside it
 * already names the product (the hero).
 */
export function Logo({
  size,
  className,
  decorative = false,
}: {
  size?: keyof typeof logoSizes;
  className?: string;
  decorative?: boolean;
}) {
  const name = decorative
    ? { 'aria-hidden': true }
    : { role: 'img', 'aria-label': t('a11y.logo', { product: siteConfig.productName }) };
  return (
    <svg viewBox="0 0 64 64" className={logoClass(size, className)} {...name}>
      <use href="#site-logo" />
    </svg>
  );
}
