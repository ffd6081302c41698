import { api, getData } from '../../lib/api.js';

/** A scoped API key as `GET /api/keys` lists it; its secret is shown once, when it is made, and never listed. */
export interface ApiKeyEntry {
  id: number;
  name: string;
  scopes: string[];
  created: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`, or '' when the key was never used (likewise `expires` when it never expires). */
  lastUsed: string;
  expires: string;
}

/** One line of the account's activity log (`GET /api/account/activity`), newest first. */
export interface ActivityEntry {
  date: string;
  event: string;
  /** `session` (the dashboard), `cli`, or the name of the API key that made the request. */
  via: string;
  ip: string;
  agent: string;
}

export interface NewKey {
  name: string;
  scopes: string[];
  expires?: string;
}

export const accountKeys = {
  keys: ['account', 'keys'] as const,
  activity: ['account', 'activity'] as const,
};

export const listKeys = async () => (await getData<{ data: { result: number; keys: ApiKeyEntry[] } }>('/keys')).keys;
export const createKey = (body: NewKey) => api.post<{ id: number; key: string }>('/key/add', body);
export const revokeKey = (id: number) => api.delete<{ message: string }>(`/key/${id}/delete`);
export const listActivity = (page: number, limit: number) =>
  getData<{ data: { result: number; activity: ActivityEntry[] } }>('/account/activity', { page, limit });
