import { lazy, Suspense } from 'react';
import { Route, Router, Switch, useLocation } from 'wouter';
import { Loading } from '../components/ui/status';
import { paths } from '../config/paths';
import { ApiProvider } from '../lib/api-bootstrap/api-provider';
import { useHashPath, useHashSearch } from '../lib/hash-location';
import { RouteErrorBoundary } from './error-boundary';
import LandingRoute from './routes/landing';

// The landing page ships in the first load; every other screen is its own chunk.
const loadDownload = () => import('./routes/download');
const loadDownloadHelp = () => import('./routes/download-help');
const loadAnnouncement = () => import('./routes/announcement');
const loadAnnouncements = () => import('./routes/announcements');
const loadChangelog = () => import('./routes/changelog');
const DownloadRoute = lazy(loadDownload);
const DownloadHelpRoute = lazy(loadDownloadHelp);
const AnnouncementRoute = lazy(loadAnnouncement);
const AnnouncementsRoute = lazy(loadAnnouncements);
const ChangelogRoute = lazy(loadChangelog);
const NotFoundRoute = lazy(() => import('./routes/not-found'));

/** Starts fetching the chunk of the screen at `path` (the hash's path) while the language
 * catalog loads, rather than after the first render asks for it. A failure is left to the
 * render, whose error boundary shows it. */
export function preloadRoute(path: string): void {
  const first = path.split('/')[1] ?? '';
  const load = {
    download: loadDownload,
    downloadHelp: loadDownloadHelp,
    announcement: loadAnnouncement,
    announcements: loadAnnouncements,
    changelog: loadChangelog,
  }[first];
  load?.().catch(() => undefined);
}

/** The screen of the current route; the build prerenders it for the landing page. */
export function Routes() {
  // A new route gets a fresh error boundary, so one failed screen does not stick.
  const [location] = useLocation();
  return (
    <RouteErrorBoundary key={location}>
      <Suspense fallback={<Loading />}>
        <Switch>
          <Route path={paths.home} component={LandingRoute} />
          <Route path={paths.download} component={DownloadRoute} />
          <Route path={paths.downloadHelp} component={DownloadHelpRoute} />
          <Route path={paths.announcementPattern} component={AnnouncementRoute} />
          <Route path={paths.announcements} component={AnnouncementsRoute} />
          <Route path={paths.announcementsItemPattern} component={AnnouncementsRoute} />
          <Route path={paths.changelog} component={ChangelogRoute} />
          <Route component={NotFoundRoute} />
        </Switch>
      </Suspense>
    </RouteErrorBoundary>
  );
}

export function App() {
  return (
    <ApiProvider>
      <Router hook={useHashPath} searchHook={useHashSearch}>
        <Routes />
      </Router>
    </ApiProvider>
  );
}
