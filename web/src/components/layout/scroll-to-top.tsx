import { useEffect, useState } from 'react';
import { scrollTopThresholdPx } from '../../config/constants';
import { cn } from '../../lib/cn';
import { t } from '../../lib/i18n';
import { Icon, iconPaths } from '../ui/icon';

export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const update = () => setVisible(window.scrollY > scrollTopThresholdPx);
    // Reading the scroll position lays the page out: the first reading waits for the next
    // frame, which lays it out anyway.
    const frame = requestAnimationFrame(update);
    window.addEventListener('scroll', update, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', update);
    };
  }, []);
  return (
    <button
      type="button"
      aria-label={t('scrollTop.label')}
      title={t('scrollTop.label')}
      hidden={!visible}
      onClick={(event) => {
        // Hiding a focused button mid-scroll makes Chromium stop the smooth scroll halfway.
        event.currentTarget.blur();
        window.scrollTo({ top: 0, behavior: 'smooth' });
      }}
      className={cn(
        'fixed end-4 bottom-5 z-40 grid size-11 place-items-center rounded-full border border-line bg-surface/90 text-fg shadow-lg backdrop-blur transition hover:bg-surface-2 md:end-8 md:bottom-8',
      )}
    >
      <Icon path={iconPaths.arrowUp} />
    </button>
  );
}
