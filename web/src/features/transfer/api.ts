import { api, getData, withQuery } from '../../lib/api.js';
import type { ImportJob } from '../../lib/types.js';

/** A plain link to it downloads the file: same origin, so the browser sends the session cookie as with the QR images. */
export const EXPORT_URL = '/api/urls/export';

export const importKeys = {
  job: (id: number) => ['import', id] as const,
};

/** The file goes as the body itself (every format the import reads is text/csv to it); `columns` maps its columns. */
export const startImport = async ({ file, columns }: { file: File; columns?: string }) =>
  (await api.upload<{ data: ImportJob }>(withQuery('/urls/import', { columns }), { type: 'text/csv', content: file })).data;
export const getImport = (id: number) => getData<{ data: ImportJob }>(`/urls/import/${id}`);
