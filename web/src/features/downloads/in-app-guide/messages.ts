import { inAppGuideWords, type InAppGuideWords } from '@chat-site/contract/in-app-words';
import { useLanguage } from '../../../lib/i18n';

// The guide's words ship in its chunk, in the three languages, rather than in the catalogs that
// every first load fetches (docs/performance.md#the-first-load-budget): only visitors inside a
// chat app ever see them.

export type GuideText = InAppGuideWords;

/** The guide's words in the active language; re-renders when it changes. */
export function useGuideText(): GuideText {
  return inAppGuideWords[useLanguage()];
}
