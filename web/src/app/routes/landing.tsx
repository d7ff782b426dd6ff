import { PageShell } from '../../components/layout/page-shell';
import { FeatureGrid } from '../../features/landing/components/feature-grid';
import { Hero } from '../../features/landing/components/hero';
import { PinnedStrip } from '../../features/landing/components/pinned-strip';

export default function LandingRoute() {
  return (
    <PageShell>
      <Hero />
      <PinnedStrip />
      <FeatureGrid />
    </PageShell>
  );
}
