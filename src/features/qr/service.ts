import { destinationsChanged, healthOf } from '../health/access.js';
import { queueWebhookEvents, webhooksHearing } from '../webhooks/access.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { invalidateQr } from '../../cache/public-cache.js';
import { fail } from '../../lib/errors.js';
import { listData, toPage, type ListData } from '../../lib/pagination.js';
import { randomAlias } from '../../infra/secrets.js';
import { nowTimestamp } from '../../lib/time.js';
import { readStats, type LabelCounts } from '../stats/service.js';
import { checkType, encodeContent, readContent, titleOf, type Content, type QrType } from './content.js';
import { assertEncodable } from './render.js';
import * as repo from './repo.js';
import { checkColor, checkContrast, checkLogo, DEFAULT_BACKGROUND, DEFAULT_FOREGROUND } from './style.js';
import type { Static } from 'typebox';
import type { QrEntrySchema, QrUpdateBody } from './schema.js';

/** Byte-mode capacity at error correction H is 1273 bytes; numeric data packs denser, so this only skips hopeless input. */
const MAX_PAYLOAD_BYTES = 3100;
const MAX_NAME = 255;
/** Networks a QR code's socialCount always lists (with 0), per the spec's sample. */
const QR_SOCIAL_KEYS = ['facebook', 'twitter', 'instagram'];

/** What add and update share: the data, its style and a name (add also takes the type). */
export type QrInput = Omit<Static<typeof QrUpdateBody>, 'type'>;
export type QrEntry = Static<typeof QrEntrySchema>;

export const imageUrl = (ctx: AppContext, slug: string) => `${ctx.config.BASE_URL}/qr/${slug}`;
export const scanUrl = (ctx: AppContext, slug: string) => `${ctx.config.BASE_URL}/qr/${slug}/scan`;

/** Link codes encode our tracking address, so scans are counted and the destination can change after printing. */
export function payloadFor(ctx: AppContext, type: string, slug: string, storedPayload: string): string {
  return type === 'link' ? scanUrl(ctx, slug) : storedPayload;
}

function checkedPayload(ctx: AppContext, type: QrType, slug: string, content: Content): string {
  const payload = payloadFor(ctx, type, slug, encodeContent(type, content));
  if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw fail('qr_data_too_long');
  try {
    // Checked at H so adding a logo later can never make a stored code unrenderable.
    assertEncodable(payload);
  } catch {
    throw fail('qr_data_too_long');
  }
  return payload;
}

function checkName(name: string | undefined): string {
  const value = (name ?? '').trim();
  if (value.length > MAX_NAME) throw fail('invalid_field', `The field "name" must be at most ${MAX_NAME} characters.`);
  return value;
}

/** Colors and logo of an add or update; omitted fields keep `current`. */
async function readStyle(input: QrInput, current: { foreground: string; background: string }) {
  const pick = (value: string | undefined, field: string, fallback: string, kept: string) =>
    value === undefined ? kept || fallback : checkColor(value, field, fallback);
  const foreground = pick(input.foreground, 'foreground', DEFAULT_FOREGROUND, current.foreground);
  const background = pick(input.background, 'background', DEFAULT_BACKGROUND, current.background);
  checkContrast(foreground, background);
  const logo = await checkLogo(input.logo);
  return { foreground, background, ...(logo === undefined ? {} : { logo }) };
}

function toEntry(ctx: AppContext, row: repo.QrSummary): QrEntry {
  return { id: row.id, link: imageUrl(ctx, row.slug), scans: Number(row.scans), name: row.name, date: row.created_at };
}

export async function listQrs(ctx: AppContext, userId: number, query: { limit?: number; page?: number }): Promise<ListData<QrEntry>> {
  const page = toPage(query);
  const { total, rows } = await repo.listQrs(ctx.db, userId, page);
  return listData(
    page,
    total,
    rows.map((row) => toEntry(ctx, row)),
  );
}

/** The spec gives QR label counts as strings, unlike short links. */
function asStrings(counts: LabelCounts): Record<string, string> | 0 {
  if (counts === 0 || Object.keys(counts).length === 0) return 0;
  return Object.fromEntries(Object.entries(counts).map(([label, n]) => [label, String(n)]));
}

/** Extension: the code's content in add's shape; `data` is stored as the checked content object. */
function contentFields(row: repo.QrWithContent) {
  const { type, background, foreground, logo } = row;
  return { type, data: JSON.parse(row.data) as Content, background, foreground, logo };
}

export async function getQr(ctx: AppContext, userId: number, id: number) {
  const row = await repo.findQrDetail(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'QR code');
  const [stats, health] = await Promise.all([readStats(ctx, 'qr', id, QR_SOCIAL_KEYS), healthOf(ctx.db, 'qr', [id])]);
  return {
    details: { ...toEntry(ctx, row), ...contentFields(row), ...(row.type === 'link' ? { health: health.get(id) } : {}) },
    data: {
      clicks: stats.clicks,
      uniqueClicks: stats.uniqueClicks,
      topCountries: asStrings(stats.topCountries),
      topReferrers: asStrings(stats.topReferrers),
      topBrowsers: asStrings(stats.topBrowsers),
      topOs: asStrings(stats.topOs),
      socialCount: stats.socialCount,
    },
  };
}

export async function addQr(ctx: AppContext, userId: number, input: QrInput & { type: string }) {
  const type = checkType(input.type);
  const content = readContent(type, input.data);
  const style = await readStyle(input, { foreground: DEFAULT_FOREGROUND, background: DEFAULT_BACKGROUND });
  const name = checkName(input.name) || titleOf(type, content);
  const hearing = await webhooksHearing(ctx.db, userId, ['qr.created']);
  for (let attempt = 1; ; attempt++) {
    const slug = randomAlias(12);
    const payload = checkedPayload(ctx, type, slug, content);
    const row = { user_id: userId, slug, name, type, data: JSON.stringify(content), payload, ...style, created_at: nowTimestamp() };
    // With a webhook hearing qr.created, its event is queued in the insert's transaction.
    const insert = async (db: Db) => {
      const id = await repo.insertQr(db, row);
      await queueWebhookEvents(db, hearing, userId, 'qr.created', [{ id, name, type, link: imageUrl(ctx, slug) }]);
      return id;
    };
    try {
      const id = hearing.length > 0 ? await ctx.db.transaction().execute(insert) : await insert(ctx.db);
      invalidateQr(ctx, slug); // drops a cached "no such code" for this slug
      return { id, link: imageUrl(ctx, slug) };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** The type of a code is fixed at creation; `data` is read as that type. The slug, and so the printed code's address, never changes. */
export async function updateQr(ctx: AppContext, userId: number, id: number, input: QrInput): Promise<void> {
  const row = await repo.findQrForUpdate(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'QR code');
  const type = checkType(row.type);
  const content = readContent(type, input.data);
  const style = await readStyle(input, row);
  const name = checkName(input.name);
  const payload = checkedPayload(ctx, type, row.slug, content);
  const data = JSON.stringify(content);
  const hearing = await webhooksHearing(ctx.db, userId, ['qr.updated']);
  const write = async (db: Db) => {
    await repo.updateQr(db, userId, id, { data, payload, ...style, ...(name ? { name } : {}) });
    // A link code sent elsewhere: what its last check found no longer holds.
    if (type === 'link' && data !== row.data) await destinationsChanged(db, 'qr', id);
    await queueWebhookEvents(db, hearing, userId, 'qr.updated', [{ id, type, link: imageUrl(ctx, row.slug), ...(name ? { name } : {}) }]);
  };
  await (hearing.length > 0 ? ctx.db.transaction().execute(write) : write(ctx.db));
  invalidateQr(ctx, row.slug);
}

export async function deleteQr(ctx: AppContext, userId: number, id: number): Promise<void> {
  const hearing = await webhooksHearing(ctx.db, userId, ['qr.deleted']);
  const slug = await repo.deleteQr(ctx.db, userId, id, (trx) => queueWebhookEvents(trx, hearing, userId, 'qr.deleted', [{ id }]));
  if (slug === undefined) throw fail('not_found', 'QR code');
  invalidateQr(ctx, slug);
}
