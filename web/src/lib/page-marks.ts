import {
  fieldAttribute,
  loadingAttribute,
  platformAttribute,
  prerenderAttribute,
  primaryHostOnlyAttribute,
} from '@chat-site/contract';

/**
 * The page names (@chat-site/contract) the site's markup carries for the boot scripts, the
 * early drawing and CSS, as props to spread: `<span {...fieldMark('title')}>`.
 */
export const fieldMark = (name: string) => ({ [fieldAttribute]: name });
export const platformMark = (platform: string) => ({ [platformAttribute]: platform });
export const prerenderMark = (path: string) => ({ [prerenderAttribute]: path });
export const loadingMark = { [loadingAttribute]: '' };
export const primaryHostOnlyMark = { [primaryHostOnlyAttribute]: '' };
