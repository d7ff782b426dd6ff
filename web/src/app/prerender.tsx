/**
 * The landing page as the build writes it into index.html (vite.config.ts, prerenderLanding):
 * header, hero, the pinned strip's reserved place and features, in the default language, painted
 * before any script runs (the footer, far below the fold, waits for the script). The client then renders over it with createRoot, so a page in
 * another language or on another route never meets a hydration mismatch.
 */
import { renderToString } from 'react-dom/server';
import { Router } from 'wouter';
import { hashHref } from '../config/paths';
import { PageShell } from '../components/layout/page-shell';
import { LandingSections } from './routes/landing';

export function render(): string {
  return renderToString(
    <Router ssrPath="/" hrefs={hashHref}>
      <PageShell footer={false}>
        <LandingSections />
      </PageShell>
    </Router>,
  );
}
