/** The console's calls to the admin API, on the same origin, signed in by the session cookie. */
import { refusalText } from './refusals';

/** An answer that is not 2xx, with the server's `{status, msg, code…}` and the rest of its body;
 * its message is the console's own Chinese for the code (docs/admin-api.md#error-codes). */
export class ApiError extends Error {
  /** From an answer's body: the message said in Chinese from its code. */
  static from(status: number, body: Record<string, unknown>): ApiError {
    return new ApiError(status, refusalText({ ...body, status }), body);
  }

  get code(): string | undefined {
    return typeof this.body.code === 'string' ? this.body.code : undefined;
  }

  get field(): string | undefined {
    return typeof this.body.field === 'string' ? this.body.field : undefined;
  }

  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Gives up when no answer came in this long: the call fails with a sentence saying so, rather
   * than keeping the screen waiting for a server that does not answer. */
  timeoutMs?: number;
}

/** How long a save waits for its answer (docs/console.md#when-the-server-is-away). */
export const saveTimeoutMs = 15_000;

/** Calls /v1/admin`path` and answers its JSON body (undefined for 204). */
export async function call<T>(
  path: string,
  { method = 'GET', body, headers = {}, signal, timeoutMs }: CallOptions = {},
): Promise<T> {
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const stop = timeout === undefined ? signal : signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  let response: Response;
  try {
    response = await fetch(`/v1/admin${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: stop ?? null,
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    if (timeout?.aborted === true && timeoutMs !== undefined) {
      throw new ApiError(0, `服务器 ${timeoutMs / 1000} 秒内没有回应（可能仍在处理），请稍后重试`);
    }
    throw new ApiError(0, '无法连接服务器，请检查网络后重试');
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const answer = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
    throw ApiError.from(response.status, answer);
  }
  return parsed as T;
}

/** True for the answer the door gives when the session is gone (expired, or ended elsewhere). */
export const signedOut = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
