/**
 * Addresses handed out by region documents and the edge service. They end up in requests and
 * in local storage, so only well-formed http(s) URLs in one spelling (no trailing slash) pass.
 */
import { unwrapEnvelope } from './envelope.js';
import { httpUrlPattern, isRecord, pick, trimTrailingSlashes } from './fields.js';
import type { RegionAddrs } from './types.js';

function readAddr(item: unknown): string | undefined {
  const raw = typeof item === 'string' ? item : isRecord(item) ? item.addr : undefined;
  if (typeof raw !== 'string') return undefined;
  const addr = trimTrailingSlashes(raw.trim());
  return httpUrlPattern.test(addr) ? addr : undefined;
}

/** De-duplicated in document order, since the order is the operator's order of preference. */
function readAddrList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const addrs = new Set<string>();
  for (const item of value) {
    const addr = readAddr(item);
    if (addr !== undefined) addrs.add(addr);
  }
  return [...addrs];
}

/**
 * The address lists of a region document. Never throws: a broken document is one of several
 * sources tried during start-up, and empty lists just move on to the next.
 */
export function readRegionDocument(body: unknown): RegionAddrs {
  let doc: unknown;
  try {
    doc = unwrapEnvelope(body);
  } catch {
    doc = undefined;
  }
  if (!isRecord(doc)) return { apiAddrs: [], allocatorAddrs: [] };
  return {
    apiAddrs: readAddrList(pick(doc, ['api_addrs', 'apiAddrs'])),
    allocatorAddrs: readAddrList(pick(doc, ['allocator_addrs', 'allocatorAddrs'])),
  };
}

/** The alternate Android URL, only on an explicit success: the fixed APK is the safe fallback. */
export function readEdgeUrl(body: unknown): string | undefined {
  if (!isRecord(body) || body.success !== true || !isRecord(body.data)) return undefined;
  const url = body.data.url;
  if (typeof url !== 'string') return undefined;
  const trimmed = url.trim();
  return httpUrlPattern.test(trimmed) ? trimmed : undefined;
}
