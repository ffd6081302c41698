import { expect } from 'vitest';
import type { Resource } from './endpoints.js';
import type { TestServer } from './server.js';

export type Seeded = Record<Resource, number> & { linkAlias: string; bioAlias: string; qrSlug: string; campaignSlug: string };

let counter = 0;

/**
 * One of everything for an account, wired together: a link on its branded domain with a password,
 * targets, its pixel, campaign and channel; the channel also holds the bio page and the QR code.
 */
export async function seedAccount(server: TestServer, key: string): Promise<Seeded> {
  const tag = `s${process.pid}x${++counter}`;
  const add = async (path: string, body: Record<string, unknown>) => {
    const res = await server.call('POST', path, { key, body });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body;
  };
  const url = `https://example.com/${tag}`;
  const domain = (await add('/api/domain/add', { domain: `https://${tag}.example.org`, redirectroot: url, redirect404: url })).id;
  const pixel = (await add('/api/pixel/add', { type: 'analyticspixel', name: tag, tag: 'G-12345' })).id;
  const campaign = await add('/api/campaign/add', { name: tag, slug: `${tag}-rot`, public: true });
  const channel = (await add('/api/channel/add', { name: tag, description: 'seeded', color: '#123456' })).id;
  const splash = (await add('/api/splash/add', { name: tag, title: 'Wait', content: 'Seeded splash' })).id;
  const overlay = (await add('/api/overlay/add', { type: 'message', name: tag, message: 'Hi', button_text: 'Go', button_link: url })).id;
  const bio = await add('/api/bio/add', { alias: `${tag}-bio`, name: tag, description: 'about', links: [{ title: 'site', url }] });
  const link = await add('/api/url/add', {
    url,
    custom: `${tag}-link`,
    password: 'seeded password',
    title: tag,
    metatitle: 'meta',
    devicetarget: [{ device: 'iphone', link: `${url}/ios` }],
    parameters: [{ name: 'src', value: 'seed' }],
    pixels: [pixel],
    campaign: campaign.id,
    channel,
  });
  // A second, open link on the default domain, so public tests have something to follow.
  await add('/api/url/add', { url: `${url}/open`, custom: `${tag}-open` });
  const qr = await add('/api/qr/add', { type: 'link', data: { url }, name: tag });
  for (const [type, id] of [
    ['bio', bio.id],
    ['qr', qr.id],
  ] as const) {
    expect((await server.call('POST', `/api/channel/${channel}/assign/${type}/${id}`, { key })).status).toBe(200);
  }
  const job = await importJob(server, key);
  // Last, and hearing only qr.deleted: the seeding queues no delivery.
  const webhook = (await add('/api/webhook/add', { url: 'http://localhost:9/seeded', events: ['qr.deleted'] })).id;
  return {
    webhook,
    import: job,
    link: link.id,
    domain,
    pixel,
    campaign: campaign.id,
    channel,
    splash,
    overlay,
    bio: bio.id,
    qr: qr.id,
    linkAlias: `${tag}-link`,
    bioAlias: `${tag}-bio`,
    qrSlug: new URL(qr.link).pathname.split('/')[2]!,
    campaignSlug: `${tag}-rot`,
  };
}

/** An import job whose one row fails, so it creates nothing; followed to its end. */
async function importJob(server: TestServer, key: string): Promise<number> {
  const headers = { 'content-type': 'text/csv' };
  const started = await server.call('POST', '/api/urls/import', { key, rawBody: 'longurl,alias\njavascript:void(0),\n', headers });
  expect(started.status, started.text).toBe(200);
  for (;;) {
    const job = (await server.call('GET', `/api/urls/import/${started.body.data.id}`, { key })).body.data;
    if (job.status !== 'running') return job.id;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const LISTS = [
  '/api/account',
  '/api/domains',
  '/api/splash',
  '/api/overlay',
  '/api/bio',
  '/api/campaigns',
  '/api/channels',
  '/api/urls',
  '/api/pixels',
  '/api/qr',
];

async function get(server: TestServer, key: string, path: string): Promise<unknown> {
  const res = await server.call('GET', path, { key });
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return res.body;
}

/** What the API shows of an account: every list, and the detail of every link, QR code and channel. */
async function apiView(server: TestServer, key: string): Promise<Record<string, unknown>> {
  const view: Record<string, unknown> = {};
  await Promise.all(LISTS.map(async (path) => (view[path] = await get(server, key, path === '/api/account' ? path : `${path}?limit=1000`))));
  const ids = (path: string, collection: string) => ((view[path] as any).data[collection] as Array<{ id: number }>).map((e) => e.id);
  const details = [
    ...ids('/api/urls', 'urls').map((id) => `/api/url/${id}`),
    ...ids('/api/qr', 'qrs').map((id) => `/api/qr/${id}`),
    ...ids('/api/channels', 'channels').map((id) => `/api/channel/${id}?limit=1000`),
  ];
  await Promise.all(details.map(async (path) => (view[path] = await get(server, key, path))));
  return view;
}

/** Every row of the account, straight from the database: what the API does not show (splash text, bio links, hashes) too. */
async function rows(server: TestServer, userId: number): Promise<Record<string, unknown>> {
  const db = server.ctx.db;
  const owned = ['domains', 'links', 'pixels', 'campaigns', 'channels', 'splash_pages', 'overlays', 'bio_pages', 'qr_codes'] as const;
  const out: Record<string, unknown> = {
    users: await db.selectFrom('users').selectAll().where('id', '=', userId).execute(),
  };
  for (const table of owned) out[table] = await db.selectFrom(table).selectAll().where('user_id', '=', userId).orderBy('id').execute();
  out.link_pixels = await db
    .selectFrom('link_pixels')
    .innerJoin('links', 'links.id', 'link_pixels.link_id')
    .select(['link_pixels.link_id', 'link_pixels.pixel_id'])
    .where('links.user_id', '=', userId)
    .orderBy('link_pixels.link_id')
    .orderBy('link_pixels.pixel_id')
    .execute();
  out.channel_items = await db
    .selectFrom('channel_items')
    .innerJoin('channels', 'channels.id', 'channel_items.channel_id')
    .selectAll('channel_items')
    .where('channels.user_id', '=', userId)
    .orderBy('channel_items.channel_id')
    .orderBy('channel_items.item_type')
    .orderBy('channel_items.item_id')
    .execute();
  return out;
}

export interface AccountState {
  api: Record<string, unknown>;
  rows: Record<string, unknown>;
}

/** A snapshot to compare before and after: the API's view of the account and its rows. */
export async function accountState(server: TestServer, key: string, userId: number): Promise<AccountState> {
  const [api, data] = await Promise.all([apiView(server, key), rows(server, userId)]);
  return { api, rows: data };
}

const COUNTERS = new Set([
  'clicks',
  'unique_clicks',
  'scans',
  'unique_scans',
  'uniqueClicks',
  'topCountries',
  'topReferrers',
  'topBrowsers',
  'topOs',
  'topDevices',
  'topLanguages',
  'socialCount',
]);

/** The state without click and scan counts: what the public side may change is visits, nothing else. */
export function withoutCounts(state: AccountState): unknown {
  return JSON.parse(JSON.stringify(state), (k, v) => (COUNTERS.has(k) ? undefined : v));
}
