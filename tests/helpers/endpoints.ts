/**
 * Every API endpoint, for tests that go over all of them (fuzzing, tenant isolation). `params` names
 * what each path placeholder holds; `body` is a valid request body to start mutations from.
 */
export type Resource = 'link' | 'domain' | 'pixel' | 'campaign' | 'channel' | 'splash' | 'overlay' | 'bio' | 'qr' | 'import' | 'webhook';
export type ItemType = 'links' | 'bio' | 'qr';

/** A placeholder holds an id of a resource, the channel item type, or the item id of that type. */
export type Param = Resource | 'itemType' | 'item';

export interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params: Record<string, Param>;
  /** Takes the list query (limit, page, …). */
  list?: boolean;
  body?: Record<string, unknown>;
  /** Answers CSV (an attachment) when it succeeds; errors are JSON as everywhere. */
  csv?: boolean;
}

export const ITEM_RESOURCE: Record<ItemType, Resource> = { links: 'link', bio: 'bio', qr: 'qr' };

const url = 'https://example.com/fuzzed?a=1';
const crud = (one: string, resource: Resource, list: string, add: Record<string, unknown>, update: Record<string, unknown>): Endpoint[] => [
  { method: 'GET', path: `/api/${list}`, params: {}, list: true },
  { method: 'POST', path: `/api/${one}/add`, params: {}, body: add },
  { method: 'PUT', path: `/api/${one}/:id/update`, params: { id: resource }, body: update },
  { method: 'DELETE', path: `/api/${one}/:id/delete`, params: { id: resource } },
];

const linkBody = {
  url,
  custom: 'fuzz-alias',
  type: 'direct',
  password: 'long enough secret',
  domain: '',
  expiry: '2099-01-01 00:00:00',
  geotarget: [{ location: 'germany', link: url }],
  devicetarget: [{ device: 'iphone', link: url }],
  languagetarget: [{ language: 'fr', link: url }],
  parameters: [{ name: 'utm_source', value: 'x' }],
  metatitle: 't',
  metadescription: 'd',
  metaimage: 'https://example.com/i.png',
  title: 'T',
  description: 'D',
  pixels: [1],
  campaign: 1,
  channel: 1,
  tags: ['fuzz', 'Spring sale'],
};

export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/account', params: {} },
  { method: 'POST', path: '/api/account', params: {} },
  { method: 'POST', path: '/api/account/key', params: {} },
  { method: 'PUT', path: '/api/account/update', params: {}, body: { email: 'fuzz@example.com', password: 'long enough pass' } },
  { method: 'GET', path: '/api/account/activity', params: {}, list: true },
  { method: 'GET', path: '/api/keys', params: {} },
  {
    method: 'POST',
    path: '/api/key/add',
    params: {},
    body: { name: 'fuzzed key', scopes: ['links:read', 'stats:read'], expires: '2099-01-01 00:00:00' },
  },
  ...crud(
    'domain',
    'domain',
    'domains',
    { domain: 'https://fuzz.example.net', redirectroot: url, redirect404: url },
    { redirectroot: url, redirect404: '' },
  ),
  ...crud('splash', 'splash', 'splash', { name: 'S', title: 'T', content: 'C', image: 'https://example.com/s.png' }, { name: 'S2' }),
  ...crud('overlay', 'overlay', 'overlay', { type: 'message', name: 'O', message: 'M', button_text: 'B', button_link: url }, { name: 'O2' }),
  ...['splash', 'overlay', 'bio'].map((one): Endpoint => ({ method: 'GET', path: `/api/${one}/:id`, params: { id: one as Resource } })),
  ...crud(
    'bio',
    'bio',
    'bio',
    { alias: 'fuzz-bio', name: 'B', description: 'D', avatar: 'https://example.com/a.png', links: [{ title: 't', url }] },
    { name: 'B2', links: [] },
  ),
  ...crud('campaign', 'campaign', 'campaigns', { name: 'C', slug: 'fuzz-slug', public: true }, { name: 'C2', slug: null, public: false }),
  { method: 'POST', path: '/api/campaign/:campaignid/assign/:linkid', params: { campaignid: 'campaign', linkid: 'link' } },
  ...crud(
    'channel',
    'channel',
    'channels',
    { name: 'Ch', description: 'D', color: '#112233', starred: true },
    { name: 'Ch2', color: '', starred: false },
  ),
  { method: 'GET', path: '/api/channel/:id', params: { id: 'channel' }, list: true },
  { method: 'POST', path: '/api/channel/:channelid/assign/:type/:itemid', params: { channelid: 'channel', type: 'itemType', itemid: 'item' } },
  { method: 'DELETE', path: '/api/channel/:channelid/assign/:type/:itemid', params: { channelid: 'channel', type: 'itemType', itemid: 'item' } },
  ...crud('url', 'link', 'urls', linkBody, { ...linkBody, type: 'frame' }),
  { method: 'GET', path: '/api/url/:id', params: { id: 'link' } },
  { method: 'POST', path: '/api/url/:id/check', params: { id: 'link' } },
  { method: 'POST', path: '/api/urls/bulk', params: {}, body: { urls: [linkBody, { url }] } },
  { method: 'GET', path: '/api/urls/export', params: {}, csv: true },
  { method: 'POST', path: '/api/urls/import', params: {} },
  { method: 'GET', path: '/api/urls/import/:id', params: { id: 'import' } },
  { method: 'GET', path: '/api/url/:id/clicks/export', params: { id: 'link' }, csv: true },
  { method: 'GET', path: '/api/tags', params: {} },
  { method: 'PUT', path: '/api/tag/fuzz/update', params: {}, body: { name: 'fuzzed' } },
  { method: 'DELETE', path: '/api/tag/fuzz/delete', params: {} },
  ...crud('pixel', 'pixel', 'pixels', { type: 'analyticspixel', name: 'P', tag: 'G-123' }, { name: 'P2', tag: 'G-456' }),
  ...crud(
    'qr',
    'qr',
    'qr',
    { type: 'link', data: { url }, background: 'rgb(255,255,255)', foreground: 'rgb(0,0,0)', logo: '', name: 'Q' },
    { data: { url }, foreground: 'rgb(10,10,10)' },
  ),
  { method: 'GET', path: '/api/qr/:id', params: { id: 'qr' } },
  { method: 'GET', path: '/api/url/:id/visits', params: { id: 'link' }, list: true },
  { method: 'GET', path: '/api/qr/:id/visits', params: { id: 'qr' }, list: true },
  { method: 'GET', path: '/api/url/:id/visits/export', params: { id: 'link' }, csv: true },
  { method: 'GET', path: '/api/qr/:id/visits/export', params: { id: 'qr' }, csv: true },
  { method: 'GET', path: '/api/visits', params: {}, list: true },
  { method: 'GET', path: '/api/visits/export', params: {}, csv: true },
  { method: 'GET', path: '/api/qr/:id/clicks/export', params: { id: 'qr' }, csv: true },
  // Webhooks point at a name the outbound client refuses (loopback), so fuzzed events never leave the machine.
  ...crud(
    'webhook',
    'webhook',
    'webhooks',
    { url: 'http://localhost:9/fuzz', events: ['link.created', 'qr.deleted'] },
    { events: ['link.deleted'], active: false },
  ),
  { method: 'GET', path: '/api/webhook/:id/deliveries', params: { id: 'webhook' }, list: true },
  // The dashboard's session endpoints (they answer on the default domain's host, which the fuzz test sends).
  { method: 'GET', path: '/api/session', params: {} },
  { method: 'POST', path: '/api/session', params: {}, body: { email: 'fuzz@example.com', password: 'long enough pass' } },
  { method: 'DELETE', path: '/api/session', params: {} },
  { method: 'DELETE', path: '/api/sessions', params: {} },
  { method: 'GET', path: '/api/session/setup', params: {} },
  { method: 'POST', path: '/api/session/setup', params: {}, body: { token: 'fuzz', email: 'fuzz@example.com', password: 'long enough pass' } },
  { method: 'POST', path: '/api/session/register', params: {}, body: { email: 'fuzz@example.com', password: 'long enough pass' } },
];

/** Fills a path template: `values` maps each placeholder to its (already URL-safe) segment. */
export function fillPath(path: string, values: Record<string, string | number>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => String(values[name]));
}

export const label = (e: Endpoint) => `${e.method} ${e.path}`;
