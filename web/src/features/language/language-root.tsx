import type { ComponentType } from 'react';
import { useLanguage } from '../../lib/i18n';

/**
 * Renders the app afresh whenever the language changes. Screens call t() while rendering rather
 * than reading a context, so a new render from the top re-reads every text; nothing remounts, so
 * focus, scroll and loaded data stay.
 */
export function LanguageRoot({ app: App }: { app: ComponentType }) {
  useLanguage();
  return <App />;
}
