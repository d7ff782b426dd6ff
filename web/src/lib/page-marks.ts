import {
  downloadKindAttribute,
  fieldAttribute,
  loadingAttribute,
  platformAttribute,
  prerenderAttribute,
  primaryHostOnlyAttribute,
} from '@chat-site/contract';
import type { DownloadKind } from '@chat-site/contract/in-app';

/**
 * The page names (@chat-site/contract) the site's markup carries for the boot scripts, the
 * early drawing and CSS, as props to spread: `<span {...fieldMark('title')}>`.
 */
export const fieldMark = (name: string) => ({ [fieldAttribute]: name });
export const downloadKindMark = (kind: DownloadKind) => ({ [downloadKindAttribute]: kind });
export const platformMark = (platform: string) => ({ [platformAttribute]: platform });
export const prerenderMark = (path: string) => ({ [prerenderAttribute]: path });
export const loadingMark = { [loadingAttribute]: '' };
export const primaryHostOnlyMark = { [primaryHostOnlyAttribute]: '' };
