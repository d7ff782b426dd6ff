/**
 * The security headers every answer carries (helmet's set, Permissions-Policy), worked out once
 * at start: they depend on the settings alone, never on the request. @fastify/helmet builds
 * helmet's middleware afresh for every request, which cost more than answering a cached read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

export type HeaderList = [name: string, value: string][];

/** What helmet would set on a response with these options, in the order it sets them. */
export function helmetHeaders(options: HelmetOptions): HeaderList {
  const headers: HeaderList = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader() {}, // X-Powered-By, which Node never sets
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, recorder, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error;
  });
  return headers;
}

export interface SecuritySettings {
  /** Visitors arrive over HTTPS: send HSTS (docs/configuration.md). */
  behindTls: boolean;
}

/** Every answer's security headers, as names in lower case and their values. */
export function securityHeaders({ behindTls }: SecuritySettings): Record<string, string> {
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
    // Public files and API answers are read by pages on other hosts (the site, its CDN).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // Only when the operator says visitors arrive over HTTPS: HSTS on plain HTTP would lock
    // visitors out of a site that has no certificate.
    hsts: behindTls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  headers.push(['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()']);
  return Object.fromEntries(headers);
}
