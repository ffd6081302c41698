import { api, getData } from '../../lib/api.js';
import type { ActivityBody, ApiKeyCreatedBody, ApiKeyInput, ApiKeyListBody } from '../../lib/types.js';

export const accountKeys = {
  keys: ['account', 'keys'] as const,
  activity: ['account', 'activity'] as const,
};

/** The account's keys; a key's secret is shown once, by `createKey`, and never listed. */
export const listKeys = async () => (await getData<ApiKeyListBody>('/keys')).keys;
export const createKey = (body: ApiKeyInput) => api.post<ApiKeyCreatedBody>('/key/add', body);
/** Replaces the full-access key "default" (made if missing); the old one stops working at once. */
export const replaceDefaultKey = async () => (await api.post<{ data: { apiKey: string } }>('/account/key')).data.apiKey;
export const revokeKey = (id: number) => api.delete<{ message: string }>(`/key/${id}/delete`);
/** A page of the activity log, newest first; `result` is the count of all entries. */
export const listActivity = (page: number, limit: number) => getData<ActivityBody>('/account/activity', { page, limit });
