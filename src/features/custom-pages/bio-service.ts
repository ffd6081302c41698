import type { AppContext } from '../../context.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { BioRow } from '../../db/types.js';
import { invalidateAddress } from '../../cache/public-cache.js';
import { fail } from '../../lib/errors.js';
import { listData, type Page } from '../../lib/pagination.js';
import { ALIAS_PATTERN, isReserved } from '../../lib/reserved.js';
import { nowTimestamp } from '../../lib/time.js';
import { checkHttpUrl, optionalHttpUrl } from '../../lib/urls.js';
import { aliasTaken } from '../links/access.js';
import * as repo from './repo.js';
import type { BioFields } from './repo.js';
import { checkName, defined } from './service.js';
import type { Static } from 'typebox';
import type { BioLink as BioLinkSchema, BioUpdateBody } from './schema.js';

export type BioLink = Static<typeof BioLinkSchema>;

/** The stored link list of a bio page, for the page renderer. */
export function bioLinks(row: Pick<BioRow, 'links'>): BioLink[] {
  try {
    const parsed: unknown = JSON.parse(row.links);
    return Array.isArray(parsed) ? (parsed as BioLink[]) : [];
  } catch {
    return [];
  }
}

const bioUrl = (ctx: AppContext, alias: string) => `${ctx.config.BASE_URL}/${alias}`;

export async function listBios(ctx: AppContext, userId: number, page: Page) {
  const [total, rows] = await Promise.all([repo.countOwned(ctx.db, 'bio_pages', userId), repo.listBios(ctx.db, userId, page)]);
  return listData(
    page,
    total,
    rows.map((r) => ({ id: r.id, alias: r.alias, name: r.name, url: bioUrl(ctx, r.alias), date: r.created_at })),
  );
}

export async function getBio(ctx: AppContext, userId: number, id: number) {
  const row = await repo.findOwnBioRow(ctx.db, userId, id);
  if (!row) throw fail('not_found', 'Bio page');
  const { alias, name, description, avatar } = row;
  return { id: row.id, alias, name, description, avatar, links: bioLinks(row), url: bioUrl(ctx, alias), date: row.created_at };
}

type BioInput = Static<typeof BioUpdateBody>;

function checkAlias(alias: string | undefined): string | undefined {
  if (alias === undefined) return undefined;
  const trimmed = alias.trim();
  if (!ALIAS_PATTERN.test(trimmed)) throw fail('alias_invalid', 'alias');
  if (isReserved(trimmed)) throw fail('alias_reserved', trimmed);
  return trimmed;
}

/** Only title and url of each link are kept; every url must be http(s), and a row with neither is refused by its index. */
function checkLinks(links: BioLink[] | undefined): string | undefined {
  if (links === undefined) return undefined;
  const checked = links.map((link, i) => {
    if (!link.title.trim() && !link.url.trim()) throw fail('invalid_field', `links[${i}] is empty: give it a url, or leave the row out.`);
    checkHttpUrl(link.url, `links[${i}].url`);
    return { title: link.title.trim(), url: link.url.trim() };
  });
  return JSON.stringify(checked);
}

function bioChanges(input: BioInput): Partial<BioFields> {
  return defined({
    alias: checkAlias(input.alias),
    name: checkName(input.name),
    description: input.description?.trim(),
    avatar: input.avatar === undefined ? undefined : optionalHttpUrl(input.avatar, 'avatar'),
    links: checkLinks(input.links),
  });
}

/** Checks the alias is free, runs the write, maps a lost race to the same 409, then drops cached copies of the addresses. */
async function saving<T>(ctx: AppContext, aliases: { next?: string; old?: string; exceptId?: number }, write: () => Promise<T>): Promise<T> {
  if (aliases.next && aliases.next !== aliases.old && (await aliasTaken(ctx.db, 0, aliases.next, { bio: aliases.exceptId })))
    throw fail('alias_taken');
  let result: T;
  try {
    result = await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw fail('alias_taken');
    throw error;
  }
  for (const alias of new Set([aliases.old, aliases.next])) {
    if (alias) invalidateAddress(ctx, null, alias);
  }
  return result;
}

export async function addBio(ctx: AppContext, userId: number, input: BioInput & { alias: string; name: string }) {
  const fields = { description: '', avatar: '', links: '[]', ...bioChanges(input) } as BioFields;
  const id = await saving(ctx, { next: fields.alias }, () => repo.insertBio(ctx.db, { ...fields, user_id: userId, created_at: nowTimestamp() }));
  return { id, url: bioUrl(ctx, fields.alias) };
}

export async function updateBio(ctx: AppContext, userId: number, id: number, input: BioInput): Promise<void> {
  const current = await repo.findOwnBio(ctx.db, userId, id);
  if (!current) throw fail('not_found', 'Bio page');
  const changes = bioChanges(input);
  await saving(ctx, { next: changes.alias, old: current.alias, exceptId: id }, () => repo.updateBio(ctx.db, id, changes));
}

export async function deleteBio(ctx: AppContext, userId: number, id: number): Promise<void> {
  const current = await repo.findOwnBio(ctx.db, userId, id);
  if (!current) throw fail('not_found', 'Bio page');
  await saving(ctx, { old: current.alias }, () => repo.deleteBio(ctx.db, id));
}
