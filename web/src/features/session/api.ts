import { api, ApiError, setCsrf } from '../../lib/api.js';

/** The session answer of the server (`GET/POST /api/session`, `POST /api/session/setup`). */
export interface Session {
  email: string;
  csrf: string;
  expiresAt: string;
}

export interface SetupState {
  needed: boolean;
  registration: 'open' | 'closed';
}

export const SESSION_KEY = ['session'] as const;

function keep(session: Session): Session {
  setCsrf(session.csrf);
  return session;
}

/** The signed-in session, or null: `GET /api/session/state` answers 200 either way, so no failed request is logged. */
export async function fetchSession(): Promise<Session | null> {
  try {
    const { data } = await api.get<{ data: { signedIn: boolean; session?: Session } }>('/session/state');
    return data.signedIn && data.session ? keep(data.session) : null;
  } catch (error) {
    // Two session cookies (session_ambiguous): the server expired both, so the visitor is signed out.
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const signIn = async (body: { email: string; password: string }) => keep((await api.post<{ data: Session }>('/session', body)).data);
export const register = async (body: { email: string; password: string }) =>
  keep((await api.post<{ data: Session }>('/session/register', body)).data);
export const setUp = async (body: { token: string; email: string; password: string }) =>
  keep((await api.post<{ data: Session }>('/session/setup', body)).data);
export const setupState = async () => (await api.get<{ data: SetupState }>('/session/setup')).data;

export async function signOut(everywhere = false): Promise<void> {
  await api.delete(everywhere ? '/sessions' : '/session');
  setCsrf('');
}
