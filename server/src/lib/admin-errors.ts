/**
 * How the admin API's refusals get their machine code and field (docs/admin-api.md#error-codes):
 * from the handler's own HttpError, from Fastify's schema validation, from the `body/…:` prefix
 * its messages already name a field with, else from the status alone.
 */
import type { FastifyError, FastifyRequest, RouteOptions } from 'fastify';
import { HttpError, type ErrorDetail } from './errors.js';
import { adminErrorFields, codeForStatus, fieldPath, type ErrorCode } from './error-codes.js';

type Refusal = ErrorDetail & { code: ErrorCode };

interface SchemaProblem {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The code and field of an admin refusal that went through the error handler. */
export function adminRefusal(error: FastifyError, status: number, request: FastifyRequest): Refusal {
  if (status >= 500) return { code: codeForStatus(status) };
  if (error instanceof HttpError && error.detail.code !== undefined)
    return { ...error.detail, code: error.detail.code };
  const validation = (error as { validation?: SchemaProblem[] }).validation;
  const problem = validation?.[0];
  if (problem !== undefined) return schemaRefusal(problem);
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const size = Number(request.headers['content-length']);
    return {
      code: 'too_large',
      limit: request.routeOptions.bodyLimit ?? 1024 * 1024,
      ...(Number.isSafeInteger(size) && { size }),
    };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { code: 'unsupported_type' };
  if (error.code?.includes('JSON') === true || error.name === 'SyntaxError') return { code: 'bad_json' };
  const named = /^body(\/[^\s:]+)[: ]/.exec(error.message);
  if (status === 400 && named?.[1] !== undefined) {
    return { code: 'invalid_field', field: fieldPath(named[1]), ...(error instanceof HttpError && error.detail) };
  }
  return { code: codeForStatus(status), ...(error instanceof HttpError && error.detail) };
}

function schemaRefusal({ instancePath, keyword, params }: SchemaProblem): Refusal {
  const limit = typeof params.limit === 'number' ? { limit: params.limit } : {};
  const at = (child: unknown) => fieldPath(typeof child === 'string' ? `${instancePath}/${child}` : instancePath);
  switch (keyword) {
    case 'required':
      return { code: 'missing_field', field: at(params.missingProperty) };
    case 'additionalProperties':
      return { code: 'unknown_field', field: at(params.additionalProperty) };
    case 'maxLength':
    case 'maxItems':
      return { code: 'too_long', field: at(undefined), ...limit };
    case 'minLength':
    case 'minItems':
      return { code: 'too_short', field: at(undefined), ...limit };
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return { code: 'out_of_range', field: at(undefined), ...limit };
    default:
      return { code: 'invalid_field', field: at(undefined) };
  }
}

/**
 * A refusal the admin door or a handler sent itself ({status, msg}, no code): given the code of
 * its status. Runs after serialization, on error answers only.
 */
export function withStatusCode(status: number, payload: unknown): unknown {
  if (status < 400 || typeof payload !== 'string' || !payload.startsWith('{')) return payload;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    if (typeof body.msg !== 'string' || 'code' in body) return payload;
    return JSON.stringify({ ...body, code: codeForStatus(status) });
  } catch {
    return payload;
  }
}

/**
 * An admin route's own error answers ({status, msg, …}) declare the code and field too, so the
 * serializer keeps them and the OpenAPI document shows them.
 */
export function declareAdminErrors(route: RouteOptions): void {
  const response = route.schema?.response as Record<string, unknown> | undefined;
  if (response !== undefined) Object.assign(response, withAdminErrorFields(response));
}

/** `responses` with every error answer ({status, msg, …}) naming the code and field too. */
export function withAdminErrorFields(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => {
      const properties = (schema as { properties?: Record<string, unknown> }).properties;
      if (Number(status) < 400 || properties?.msg === undefined) return [status, schema];
      return [status, { ...(schema as object), properties: { ...properties, ...adminErrorFields } }];
    }),
  );
}
