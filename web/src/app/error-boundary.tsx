import { Component, type ReactNode } from 'react';
import { ErrorMessage } from '../components/ui/status';
import { logFailure } from '../lib/http';
import { t } from '../lib/i18n';

/** When a screen cannot be set up at all (its code failed to load, or it threw), the visitor
 * sees 'failed to load data' (docs/public-api.md#errors) in its place rather than a blank page. */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    logFailure('page initialisation', error);
  }

  override render() {
    return this.state.failed ? <ErrorMessage>{t('error.load')}</ErrorMessage> : this.props.children;
  }
}
