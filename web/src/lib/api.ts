/**
 * The dashboard's one way to the JSON API: same origin, the session cookie, the CSRF header on every
 * change, and `{"error":1,"message"}` (or any failed status) thrown as an ApiError whose message is shown.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = '',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

let csrfToken = '';

/** Kept from the session answer; sent as X-CSRF-Token with every request that changes something. */
export function setCsrf(token: string): void {
  csrfToken = token;
}

/** Called when any request finds the session gone (401), so the app can show the sign-in page. */
let onUnauthorized: (() => void) | undefined;
export function whenUnauthorized(callback: () => void): void {
  onUnauthorized = callback;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
/** A list repeats its key (`tag=a&tag=b`). */
export type Query = Record<string, string | number | string[] | undefined>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, item);
    else if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** A body sent as it is (a file) with its own type, instead of as JSON. */
export interface RawBody {
  type: string;
  content: Blob | string;
}

async function request<T>(method: Method, path: string, body?: unknown, raw?: RawBody): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined || raw) headers['content-type'] = raw?.type ?? 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: raw ? raw.content : body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached. Check your connection and try again.');
  }
  const json = (await res.json().catch(() => null)) as { error?: unknown; message?: unknown; code?: unknown } | null;
  const failed = !res.ok || json === null || json.error === 1 || json.error === '1';
  if (!failed) return json as T;
  if (res.status === 401 && !path.startsWith('/session')) onUnauthorized?.();
  const message = typeof json?.message === 'string' ? json.message : `The server answered ${res.status} ${res.statusText}`.trim();
  throw new ApiError(res.status, message, typeof json?.code === 'string' ? json.code : '');
}

/** Envelopes keep the spec's shapes (`{error, data}`, `{error, id, …}`): callers pick `data` where there is one. */
export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query)),
  post: <T>(path: string, body: unknown = {}) => request<T>('POST', path, body),
  upload: <T>(path: string, raw: RawBody) => request<T>('POST', path, undefined, raw),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** The `data` of an `{"error":0,"data":…}` answer. */
export async function getData<T extends { data: unknown }>(path: string, query?: Query): Promise<T['data']> {
  return (await api.get<T>(path, query)).data;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
