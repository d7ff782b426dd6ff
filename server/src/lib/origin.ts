import type { FastifyRequest } from 'fastify';

/** The origin visitors reach this server at: PUBLIC_URL when set, else what the request says
 * (honouring X-Forwarded-* only when TRUST_PROXY allows it). */
export function publicOrigin(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

export function apiBase(request: FastifyRequest, publicUrl: string | undefined): string {
  return `${publicOrigin(request, publicUrl)}/v1/`;
}
