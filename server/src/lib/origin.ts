import type { FastifyRequest } from 'fastify';

/** The origin visitors reach this server at: PUBLIC_URL when set, else what the request says
 * (honouring X-Forwarded-* only when TRUST_PROXY allows it), normalised by the URL parser so
 * that it holds nothing but a scheme, a host name and a port: safe to write into HTML, XML and
 * JSON as it is. A Host header that is no host name gives http://localhost. */
export function publicOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return publicUrl;
  try {
    const { origin } = new URL(`${request.protocol}://${request.host}`);
    return origin === 'null' ? fallbackOrigin : origin;
  } catch {
    return fallbackOrigin;
  }
}

const fallbackOrigin = 'http://localhost';

export function apiBase(request: FastifyRequest, publicUrl: string | undefined): string {
  return `${publicOrigin(request, publicUrl)}/v1/`;
}

/**
 * Stands for the origin in text built once and shared by every origin it is asked at (feeds,
 * the sitemap, share pages): shaped like an origin, so URL rules treat it as one, and made of
 * private-use characters no real text contains. withOrigin puts the real one in.
 */
export const originMark = 'http://\uE000origin\uE000';

export function withOrigin(text: string, origin: string): string {
  return text.replaceAll(originMark, () => origin);
}
