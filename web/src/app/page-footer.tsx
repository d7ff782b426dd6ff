import { Footer } from '../components/layout/footer';
import { ThemeSwitcher } from '../features/theme/theme-switcher';

/** The footer with its theme switcher: a chunk of its own, since it only ever shows after
 * hydration, below the fold (docs/performance.md#the-first-load-budget). */
export default function PageFooter() {
  return <Footer themeSwitcher={<ThemeSwitcher />} />;
}
