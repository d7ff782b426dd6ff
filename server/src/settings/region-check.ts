import type { RegionDocument } from '@chat-site/contract';
import type { ErrorDetail } from '../lib/errors.js';

/** A region document's first problem: the message scripts read, and its code and field. */
export interface RegionProblem {
  msg: string;
  detail: ErrorDetail;
}

/**
 * What is wrong with a region document before it is published, naming the field
 * (`body/api_addrs/1/addr: …`), or undefined when it is fine: every address a well-formed http(s)
 * URL, none twice in a list, and at least one API address, since an app told of none has nowhere
 * to go (docs/public-api.md#api-address-failover).
 */
export function regionDocumentProblem(document: RegionDocument): RegionProblem | undefined {
  if (document.api_addrs.length === 0) {
    const msg = 'body/api_addrs: at least one API address is needed';
    return { msg, detail: { code: 'too_short', field: 'api_addrs', limit: 1 } };
  }
  for (const field of ['api_addrs', 'allocator_addrs'] as const) {
    const seen = new Map<string, number>();
    for (const [index, { addr }] of document[field].entries()) {
      const where = `body/${field}/${index}/addr`;
      const invalid = (msg: string, code: 'invalid_field' | 'duplicate' = 'invalid_field') => ({
        msg: `${where}: ${msg}`,
        detail: { code, field: `${field}[${index}].addr` },
      });
      const url = parseHttpUrl(addr);
      if (url === undefined) return invalid(`"${addr}" is not an http(s) URL`);
      if (url.username !== '' || url.password !== '')
        return invalid('an address must not carry a user name or password');
      const same = `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}`;
      const first = seen.get(same);
      if (first !== undefined) return invalid(`${addr} is the same address as ${field}/${first}`, 'duplicate');
      seen.set(same, index);
    }
  }
  return undefined;
}

function parseHttpUrl(text: string): URL | undefined {
  if (text.trim() !== text || /\s/.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}
