import { api, getData } from '../../lib/api.js';
import type { ImportJob } from '../../lib/types.js';

/** A plain link to it downloads the file: same origin, so the browser sends the session cookie as with the QR images. */
export const EXPORT_URL = '/api/urls/export';

export const importKeys = {
  job: (id: number) => ['import', id] as const,
};

/** The file goes as the body itself: every format the import reads is text/csv to it. */
export const startImport = async (file: File) => (await api.upload<{ data: ImportJob }>('/urls/import', { type: 'text/csv', content: file })).data;
export const getImport = (id: number) => getData<{ data: ImportJob }>(`/urls/import/${id}`);
