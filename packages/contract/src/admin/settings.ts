/** The console's settings: the app config, the region document, the CDN check and the site
 * config the server read (docs/console.md). */
import { Type, type Static } from 'typebox';
import { Flag } from '../canonical.js';
import { SiteConfig } from '../site-config.js';
import { HttpUrlString, Nullable } from './common.js';

export const AppConfigBody = Type.Object(
  {
    use_cdn: Flag,
    common_cdn_bucket_url: Type.Union([Type.Literal(''), HttpUrlString]),
  },
  { additionalProperties: false },
);
export type AppConfigBody = Static<typeof AppConfigBody>;

// Addresses are checked by the server's region check, whose messages name the field.
const AddrList = Type.Array(
  Type.Object({ addr: Type.String({ minLength: 1, maxLength: 2048 }) }, { additionalProperties: false }),
  { maxItems: 50 },
);

export const RegionBody = Type.Object(
  { api_addrs: AddrList, allocator_addrs: AddrList },
  { additionalProperties: false },
);
export type RegionBody = Static<typeof RegionBody>;

export const CdnCheckBody = Type.Optional(
  Type.Object(
    {
      url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
      timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 10_000 })),
    },
    { additionalProperties: false },
  ),
);

export const CdnCheck = Type.Object({
  bucket_url: Type.String(),
  probe_url: Type.String(),
  answered: Type.Boolean(),
  status: Nullable(Type.Integer()),
  ms: Type.Integer(),
  ok: Type.Boolean(),
  redirected_to: Nullable(Type.String()),
  error: Nullable(Type.String()),
});
export type CdnCheck = Static<typeof CdnCheck>;

export const SiteConfigAnswer = Type.Object({ path: Type.String(), config: SiteConfig });
export type SiteConfigAnswer = Static<typeof SiteConfigAnswer>;
