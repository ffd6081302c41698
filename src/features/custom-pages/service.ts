import type { AppContext } from '../../context.js';
import { fail } from '../../lib/errors.js';
import { listData, type Page } from '../../lib/pagination.js';
import { nowTimestamp } from '../../lib/time.js';
import { optionalHttpUrl } from '../../lib/urls.js';
import { detachPage, pageChanged } from '../links/access.js';
import * as repo from './repo.js';
import type { OverlayFields, SplashFields } from './repo.js';
import type { Static } from 'typebox';
import type { OverlayUpdateBody, SplashUpdateBody } from './schema.js';

const OVERLAY_TYPES: readonly string[] = ['message', 'contact'];

/** A required name: present names must not be blank. */
export function checkName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (!trimmed) throw fail('name_required', 'The name');
  return trimmed;
}

/** Drops the undefined entries, so an update only sets what was sent. */
export function defined<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export async function listSplash(ctx: AppContext, userId: number, page: Page) {
  const [total, rows] = await Promise.all([repo.countOwned(ctx.db, 'splash_pages', userId), repo.listSplash(ctx.db, userId, page)]);
  return listData(
    page,
    total,
    rows.map((r) => ({ id: r.id, name: r.name, date: r.created_at })),
  );
}

export async function listOverlays(ctx: AppContext, userId: number, page: Page) {
  const [total, rows] = await Promise.all([repo.countOwned(ctx.db, 'overlays', userId), repo.listOverlays(ctx.db, userId, page)]);
  return listData(
    page,
    total,
    rows.map((r) => ({ id: r.id, type: r.type, name: r.name, date: r.created_at })),
  );
}

export async function getSplash(ctx: AppContext, userId: number, id: number) {
  const row = await repo.findOwnSplash(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Splash page');
  return { id: row.id, name: row.name, title: row.title, content: row.content, image: row.image, date: row.created_at };
}

export async function getOverlay(ctx: AppContext, userId: number, id: number) {
  const row = await repo.findOwnOverlay(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Overlay');
  const { type, name, message, button_text, button_link, email } = row;
  return { id: row.id, type, name, message, button_text, button_link, email, date: row.created_at };
}

type SplashInput = Static<typeof SplashUpdateBody>;

function splashChanges(input: SplashInput): Partial<SplashFields> {
  return defined({
    name: checkName(input.name),
    title: input.title?.trim(),
    content: input.content,
    image: input.image === undefined ? undefined : optionalHttpUrl(input.image, 'image'),
  });
}

type OverlayInput = Static<typeof OverlayUpdateBody>;

/** Strict enough to stand in a mailto: URL as it is (no `?`, `&` or spaces). */
const MAIL_ADDRESS = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/;

function contactEmail(value: string | undefined): string | undefined {
  const address = value?.trim().replace(/^mailto:/i, '');
  if (address === undefined || address === '') return address;
  if (!MAIL_ADDRESS.test(address)) throw fail('overlay_email_invalid');
  return address;
}

function overlayChanges(input: OverlayInput): Partial<OverlayFields> {
  if (input.type !== undefined && !OVERLAY_TYPES.includes(input.type)) throw fail('overlay_type_invalid');
  return defined({
    type: input.type,
    name: checkName(input.name),
    message: input.message,
    button_text: input.button_text?.trim(),
    button_link: input.button_link === undefined ? undefined : optionalHttpUrl(input.button_link, 'button_link'),
    email: contactEmail(input.email),
  });
}

export async function addSplash(ctx: AppContext, userId: number, input: SplashInput & { name: string }): Promise<number> {
  const fields = { title: '', content: '', image: '', ...splashChanges(input) } as SplashFields;
  return repo.insertSplash(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() });
}

export async function addOverlay(ctx: AppContext, userId: number, input: OverlayInput & { type: string; name: string }): Promise<number> {
  const fields = { message: '', button_text: '', button_link: '', email: '', ...overlayChanges(input) } as OverlayFields;
  return repo.insertOverlay(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() });
}

const KINDS = {
  splash: { table: 'splash_pages', name: 'Splash page' },
  overlay: { table: 'overlays', name: 'Overlay' },
} as const;
type Kind = keyof typeof KINDS;

async function ownPage(ctx: AppContext, kind: Kind, userId: number, id: number): Promise<void> {
  if (!(await repo.ownsPage(ctx.db, KINDS[kind].table, userId, id))) throw fail('not_found', KINDS[kind].name);
}

/** Links showing the page serve a cached copy of it: they are invalidated after every change. */
export async function updateSplash(ctx: AppContext, userId: number, id: number, input: SplashInput): Promise<void> {
  await ownPage(ctx, 'splash', userId, id);
  await repo.updateSplash(ctx.db, id, splashChanges(input));
  await pageChanged(ctx, 'splash', id);
}

export async function updateOverlay(ctx: AppContext, userId: number, id: number, input: OverlayInput): Promise<void> {
  await ownPage(ctx, 'overlay', userId, id);
  await repo.updateOverlay(ctx.db, id, overlayChanges(input));
  await pageChanged(ctx, 'overlay', id);
}

export async function deletePage(ctx: AppContext, kind: Kind, userId: number, id: number): Promise<void> {
  await ownPage(ctx, kind, userId, id);
  await detachPage(ctx, kind, id, (trx) => repo.deletePageRow(trx, KINDS[kind].table, id));
}
