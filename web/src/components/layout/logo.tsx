import logoUrl from '../../assets/illustrations/logo.svg';
import { siteConfig } from '../../config/site-config';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';

/** Logo sizes: the header's (28 px, 32 px from 768 px), the footer's 32 px, the tutorial's 56 px. */
const logoSizes = { header: 'size-7 md:size-8', base: 'size-8', large: 'size-14' } as const;

/** The logo's classes: its size, then `className` for where it sits (see lib/cn.ts). */
export const logoClass = (size: keyof typeof logoSizes = 'base', className?: string) => cn(logoSizes[size], className);

/** The product's logo; `loading="lazy"` where it starts below the first screen (the footer). */
export function Logo({
  size,
  className,
  loading,
}: {
  size?: keyof typeof logoSizes;
  className?: string;
  loading?: 'lazy';
}) {
  return (
    <img
      src={logoUrl}
      width={64}
      height={64}
      loading={loading}
      alt={t('a11y.logo', { product: siteConfig.productName })}
      className={logoClass(size, className)}
    />
  );
}
