import type { Bulletin, Language } from '@chat-site/contract';
import type { ConsoleTheme } from './theme';

export const previewMessage = 'chat-site-preview';

/** What the console sends the preview frame: the announcement as the site would read it. */
export interface PreviewMessage {
  type: typeof previewMessage;
  bulletin: Bulletin;
  theme: ConsoleTheme;
  /** The site's language the frame draws it in (its words and the "originally in Chinese" note). */
  language: Language;
}
