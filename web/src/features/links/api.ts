import { api, getData } from '../../lib/api.js';
import type {
  Campaign,
  Channel,
  Domain,
  LinkCreatedBody,
  LinkDetailBody,
  LinkEntry,
  LinkInput,
  LinkUpdatedBody,
  ListBody,
  Overlay,
  Pixel,
  SeriesPoint,
  Splash,
} from '../../lib/types.js';
import type { Range } from '../stats/range.js';

export interface LinkQuery {
  page: number;
  limit: number;
  order: 'date' | 'click';
  q: string;
  /** Filters of GET /api/urls: a campaign id, a channel id, a branded domain's address; "" or absent for any. */
  campaign?: string;
  channel?: string;
  domain?: string;
  /** Tags a link must all carry; [] or absent for any. */
  tag?: string[];
  /** What the destination's last check found (`broken`…); "" or absent for any. */
  health?: string;
}

export const linkKeys = {
  all: ['links'] as const,
  list: (query: LinkQuery) => ['links', 'list', query] as const,
  detail: (id: number) => ['links', id] as const,
  series: (id: number, range: Range) => ['links', id, 'series', range] as const,
};

export const listLinks = (query: LinkQuery) => getData<ListBody<'urls', LinkEntry>>('/urls', { ...query });
export const getLink = (id: number) => api.get<LinkDetailBody>(`/url/${id}`);
export const linkSeries = (id: number, range: Range) => getData<{ data: SeriesPoint[] }>(`/url/${id}/clicks`, { ...range });
export const addLink = (body: LinkInput) => api.post<LinkCreatedBody>('/url/add', body);
export const updateLink = (id: number, body: LinkInput) => api.put<LinkUpdatedBody>(`/url/${id}/update`, body);
export const deleteLink = (id: number) => api.delete(`/url/${id}/delete`);
export const assignToCampaign = (campaignId: number, linkId: number) => api.post(`/campaign/${campaignId}/assign/${linkId}`);
export const assignToChannel = (channelId: number, linkId: number) => api.post(`/channel/${channelId}/assign/links/${linkId}`);

/** Everything a link can point at, for the form's choices and the table's filters: one page of up to 1000 of each. */
export const CHOICES_KEY = ['link-choices'] as const;
export async function linkChoices() {
  const all = { limit: 1000 };
  const [domains, campaigns, channels, pixels, splash, overlays] = await Promise.all([
    getData<ListBody<'domains', Domain>>('/domains', all),
    getData<ListBody<'campaigns', Campaign>>('/campaigns', all),
    getData<ListBody<'channels', Channel>>('/channels', all),
    getData<ListBody<'pixels', Pixel>>('/pixels', all),
    getData<ListBody<'splash', Splash>>('/splash', all),
    getData<ListBody<'cta', Overlay>>('/overlay', all),
  ]);
  return {
    domains: domains.domains,
    campaigns: campaigns.campaigns,
    channels: channels.channels,
    pixels: pixels.pixels,
    splash: splash.splash,
    overlays: overlays.cta,
  };
}
export type LinkChoices = Awaited<ReturnType<typeof linkChoices>>;
