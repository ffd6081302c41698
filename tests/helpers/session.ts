import { setPassword } from '../../src/features/account/service.js';
import { TEST_HOST, type Reply, type TestServer } from './server.js';

/** A signed-in dashboard session as a browser holds it: the cookie and the CSRF token GET /api/session gave. */
export interface Session {
  cookie: string;
  csrf: string;
  email: string;
}

export const PASSWORD = 'correct horse battery';

/** The session cookie's `name=value` out of a Set-Cookie header. */
export function cookieFrom(reply: Reply): string {
  const header = [reply.headers['set-cookie'] ?? []].flat()[0] ?? '';
  return header.split(';')[0]!;
}

/** A request to the dashboard's API on `host` (the default domain unless given), with a session when one is given. */
export function dashboard(
  server: TestServer,
  method: string,
  path: string,
  options: { session?: Session; csrf?: boolean; body?: unknown; host?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { host: options.host ?? TEST_HOST, ...options.headers };
  if (options.session) headers.cookie = options.session.cookie;
  if (options.session && options.csrf !== false) headers['x-csrf-token'] ??= options.session.csrf;
  return server.call(method, path, { body: options.body, headers });
}

export async function signIn(server: TestServer, email: string, password = PASSWORD, host?: string): Promise<Session> {
  const res = await dashboard(server, 'POST', '/api/session', { body: { email, password }, host });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { cookie: cookieFrom(res), csrf: res.body.data.csrf, email };
}

/** An account with a known password (made like the CLI makes accounts), signed in. */
export async function signedInUser(server: TestServer, host?: string): Promise<Session & { apiKey: string; id: number }> {
  const user = await server.user();
  await setPassword(server.ctx, user.email, PASSWORD);
  return { ...(await signIn(server, user.email, PASSWORD, host)), apiKey: user.apiKey, id: user.id };
}
