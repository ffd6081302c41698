import type { Db } from '../../../db/connect.js';
import type { NewLink } from '../../../db/types.js';
import { randomAlias } from '../../../infra/secrets.js';
import { type AppError, fail } from '../../../lib/errors.js';
import { isReserved } from '../../../lib/reserved.js';
import { tagList } from '../../tags/access.js';
import { aliasesTaken } from '../access.js';
import type { LinkInput } from '../schema.js';
import { checkAlias, linkColumns, passwordColumn, routingColumn } from './input.js';
import type { LinkRefs } from './refs.js';

/** The pipeline's first stages (write/pipeline.ts): each item validated and normalised into a row, then the batch's aliases allocated. */
export interface NewItem {
  input: LinkInput;
  /** Kept from the source file; now when absent. */
  createdAt?: string;
}

export type Created = { id: number; shorturl: string };
export type Outcome = Created | AppError;

export const RANDOM_ATTEMPTS = 8;

export interface Draft {
  index: number;
  row: NewLink;
  refs: LinkRefs;
  /** Checked and normalised; [] when none. */
  tags: string[];
  random: boolean;
}

export function drawAlias(): string {
  for (;;) {
    const alias = randomAlias();
    if (!isReserved(alias)) return alias;
  }
}

/** Validate and normalise: the full row of one item (every column named, for multi-row INSERTs), or the error that refuses it. */
export async function draft(userId: number, item: NewItem, index: number, refs: LinkRefs, now: string): Promise<Draft> {
  const { input } = item;
  const columns = linkColumns(input);
  const custom = input.custom?.trim() ? checkAlias(input.custom.trim()) : undefined;
  const password_hash = (await passwordColumn(input.password)) ?? null;
  const tags = tagList(input.tags ?? []);
  const type = refs.type ?? { type: 'direct', splash_id: null, overlay_id: null };
  const row: NewLink = {
    user_id: userId,
    domain_id: refs.domain?.id ?? 0,
    alias: custom ?? drawAlias(),
    long_url: columns.long_url!,
    title: columns.title ?? '',
    description: columns.description ?? '',
    meta_title: columns.meta_title ?? '',
    meta_description: columns.meta_description ?? '',
    meta_image: columns.meta_image ?? '',
    ...type,
    password_hash,
    expiry: columns.expiry ?? null,
    geo_targets: columns.geo_targets ?? '[]',
    device_targets: columns.device_targets ?? '[]',
    language_targets: columns.language_targets ?? '[]',
    parameters: columns.parameters ?? '[]',
    routing: routingColumn(input, '') ?? '',
    campaign_id: refs.campaignId ?? null,
    health_check: columns.health_check ?? 1,
    fallback_url: columns.fallback_url ?? '',
    created_at: item.createdAt ?? now,
    updated_at: now,
  };
  return { index, row, refs, tags, random: !custom };
}

/** Allocate: taken custom aliases (and repeats within the batch) fail; random ones are drawn again until free. */
export async function allocate(db: Db, drafts: Draft[], outcomes: Outcome[]): Promise<Draft[]> {
  const claimed = new Set<string>();
  const ready: Draft[] = [];
  let todo = drafts;
  for (let attempt = 1; todo.length > 0; attempt++) {
    const retry: Draft[] = [];
    for (const domainId of new Set(todo.map((d) => d.row.domain_id ?? 0))) {
      const group = todo.filter((d) => (d.row.domain_id ?? 0) === domainId);
      const taken = await aliasesTaken(
        db,
        domainId,
        group.map((d) => d.row.alias),
      );
      for (const d of group) {
        const key = `${domainId}/${d.row.alias}`;
        if (!taken.has(d.row.alias) && !claimed.has(key)) {
          claimed.add(key);
          ready.push(d);
        } else if (!d.random) outcomes[d.index] = fail('alias_taken');
        else if (attempt >= RANDOM_ATTEMPTS) outcomes[d.index] = fail('aliases_exhausted');
        else retry.push({ ...d, row: { ...d.row, alias: drawAlias() } });
      }
    }
    todo = retry;
  }
  return ready;
}
