import type { AppContext } from '../../context.js';
import { shortUrl } from '../../lib/short-url.js';
import { campaignLinks } from '../links/access.js';
import { findCampaignById } from './repo.js';
import { MAX_ROTATOR_LINKS } from './rotator.js';
import { listTail } from './service.js';

export interface PublicList {
  name: string;
  links: Array<{ label: string; href: string }>;
}

const TAIL = /^(.*)-(\d{1,10})$/;

/**
 * The public list of a campaign, or null unless it is public, owned by `username` and `tail` is its
 * current `{slug}-{id}`. A password-protected link shows its short URL, never its destination.
 */
export async function findPublicList(ctx: AppContext, username: string, tail: string): Promise<PublicList | null> {
  const id = Number(TAIL.exec(tail)?.[2] ?? 0);
  if (!id || id > 2147483647) return null;
  const campaign = await findCampaignById(ctx.db, id);
  if (!campaign || campaign.public !== 1 || campaign.username !== username || listTail(campaign) !== tail) return null;
  const rows = await campaignLinks(ctx.db, campaign.id, MAX_ROTATOR_LINKS);
  return {
    name: campaign.name,
    links: rows.map((row) => {
      const href = shortUrl(ctx.config, row.host && row.scheme ? { host: row.host, scheme: row.scheme } : null, row.alias);
      return { href, label: row.title || (row.password_hash === null ? row.meta_title || row.long_url : href) };
    }),
  };
}
