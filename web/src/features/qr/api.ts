import { api, getData } from '../../lib/api.js';
import type { ListBody, QrCreatedBody, QrDetailBody, QrEntry, QrInput, SeriesPoint } from '../../lib/types.js';
import type { Range } from '../stats/range.js';

export const qrKeys = {
  all: ['qr'] as const,
  list: (page: number) => ['qr', 'list', page] as const,
  detail: (id: number) => ['qr', id] as const,
};

export const listQr = (page: number) => getData<ListBody<'qrs', QrEntry>>('/qr', { page, limit: 20 });
export const getQr = (id: number) => api.get<QrDetailBody>(`/qr/${id}`);
export const qrSeries = (id: number, range: Range) => getData<{ data: SeriesPoint[] }>(`/qr/${id}/clicks`, { ...range });
export const addQr = (body: QrInput) => api.post<QrCreatedBody>('/qr/add', body);
export const updateQr = (id: number, body: Omit<QrInput, 'type'>) => api.put(`/qr/${id}/update`, body);
export const deleteQr = (id: number) => api.delete(`/qr/${id}/delete`);

/** The image of a saved code as the server renders it (PNG by default). */
export const qrImage = (link: string, format: 'png' | 'svg', size?: number) => {
  const url = new URL(link, location.origin);
  if (format === 'svg') url.searchParams.set('format', 'svg');
  if (size) url.searchParams.set('size', String(size));
  return url.pathname + url.search;
};
