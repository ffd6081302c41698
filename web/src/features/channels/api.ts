import { api, getData } from '../../lib/api.js';
import type { Bio, Channel, ChannelItem, LinkEntry, ListBody, QrEntry } from '../../lib/types.js';

export type ItemType = 'links' | 'qr' | 'bio';

/** The spec's item types in the order the add form offers them. */
export const ITEM_TYPES: { type: ItemType; noun: string }[] = [
  { type: 'links', noun: 'Link' },
  { type: 'qr', noun: 'QR code' },
  { type: 'bio', noun: 'Bio page' },
];

export const channelKeys = {
  list: ['/channels'] as const,
  items: (id: number) => ['/channels', id, 'items'] as const,
  choices: (type: ItemType) => ['channel-choices', type] as const,
};

export const listItems = (id: number, page: number) => getData<ListBody<'items', ChannelItem>>(`/channel/${id}`, { page, limit: 20 });
/** There is no single-channel read: the channel's name and colour come from the list (one page of up to 1000). */
export const findChannel = async (id: number) =>
  (await getData<ListBody<'channels', Channel>>('/channels', { limit: 1000 })).channels.find((c) => c.id === id) ?? null;
export const updateChannel = (id: number, body: Partial<Omit<Channel, 'id'>>) => api.put(`/channel/${id}/update`, body);
export const assignItem = (id: number, type: ItemType, itemId: number) => api.post(`/channel/${id}/assign/${type}/${itemId}`);
export const removeItem = (id: number, type: ItemType, itemId: number) => api.delete(`/channel/${id}/assign/${type}/${itemId}`);

export interface Choice {
  id: number;
  label: string;
}

/** Your items of one type to pick from: the newest 100. */
export async function itemChoices(type: ItemType): Promise<Choice[]> {
  const query = { limit: 100 };
  if (type === 'links')
    return (await getData<ListBody<'urls', LinkEntry>>('/urls', query)).urls.map((l) => ({
      id: l.id,
      label: `${l.title || l.alias} (${l.shorturl})`,
    }));
  if (type === 'qr') return (await getData<ListBody<'qrs', QrEntry>>('/qr', query)).qrs.map((q) => ({ id: q.id, label: q.name }));
  return (await getData<ListBody<'bio', Bio>>('/bio', query)).bio.map((b) => ({ id: b.id, label: `${b.name} (${b.url})` }));
}
