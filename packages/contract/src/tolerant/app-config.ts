/**
 * The CDN setting. It falls back to disabled when the config cannot be loaded
 * (docs/public-api.md#cdn-rewriting), so this reader never throws: every malformed answer simply
 * means "no CDN".
 */
import { unwrapEnvelope } from './envelope.js';
import { isRecord, pick, pickTrimmed, trimTrailingSlashes } from './fields.js';
import { readFlag } from './scalars.js';
import type { CdnSettings } from './types.js';

export function readAppConfig(body: unknown): CdnSettings {
  let config: unknown;
  try {
    config = unwrapEnvelope(body);
  } catch {
    config = undefined;
  }
  if (!isRecord(config)) return { useCdn: false, bucketUrl: '' };
  // Trailing slashes go so that "<bucket>/<key>" never doubles them.
  const bucketUrl = trimTrailingSlashes(pickTrimmed(config, ['common_cdn_bucket_url', 'commonCdnBucketUrl']));
  // A CDN switched on without a bucket would send every image to "/<key>": treat it as off.
  const useCdn = readFlag(pick(config, ['use_cdn', 'useCdn'])) && bucketUrl !== '';
  return { useCdn, bucketUrl };
}
