import { PageShell } from '../page-shell';
import { FeatureGrid } from '../../features/landing/components/feature-grid';
import { Hero } from '../../features/landing/components/hero';
import { PinnedStrip } from '../../features/landing/components/pinned-strip';

/** What the landing page shows between header and footer; the build prerenders it too. */
export function LandingSections() {
  return (
    <>
      <Hero />
      <PinnedStrip />
      <FeatureGrid />
    </>
  );
}

export default function LandingRoute() {
  return (
    <PageShell>
      <LandingSections />
    </PageShell>
  );
}
