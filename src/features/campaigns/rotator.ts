import type { AppContext } from '../../context.js';
import { BoundedCache } from '../../lib/bounded-cache.js';
import { cacheKeys } from '../../lib/cache-keys.js';
import { parseTimestamp } from '../../lib/time.js';
import { shortUrl } from '../../lib/short-url.js';
import { httpHref } from '../../lib/urls.js';
import { campaignLinks, type CampaignLinkRow } from '../links/access.js';
import { findCampaignIdBySlug } from './repo.js';

/** The most links one rotator spreads over, and the most campaigns held in memory. */
export const MAX_ROTATOR_LINKS = 1000;
const MAX_ENTRIES = 10_000;

export interface RotatorTarget {
  linkId: number;
  owner: number;
  url: string;
  /** False when the visitor goes through the short link, which counts the click itself. */
  count: boolean;
}

interface Entry {
  loadedAt: number;
  links: Array<{ id: number; expiresAt: number | null; target: RotatorTarget; linkKey: string }>;
}

/**
 * Round-robin over a campaign's links, per node. Entries are dropped on invalidation of the campaign's
 * rotator key or of any of its links' keys, and expire after LINK_CACHE_TTL_S as a backstop.
 */
export class Rotator {
  private readonly entries = new BoundedCache<string, Entry>(MAX_ENTRIES, { onEvict: (key, entry) => this.unindex(key, entry) });
  private readonly byLink = new Map<string, Set<string>>();
  /** Kept apart from the link lists so a reload or invalidation does not restart the rotation. */
  private readonly turns = new BoundedCache<string, number>(MAX_ENTRIES);
  private readonly loading = new Map<string, Promise<Entry>>();
  /** Bumped on every invalidation, so a load that raced one is used once but not cached. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: AppContext) {
    this.unsubscribe = ctx.invalidation.subscribe((key) => {
      this.generation += 1;
      this.loading.clear();
      this.drop(key);
      for (const rotatorKey of this.byLink.get(key) ?? []) this.drop(rotatorKey);
    });
  }

  /** Stops listening for invalidations (the app closes). */
  close(): void {
    this.unsubscribe();
  }

  /** The next link of the campaign, or null when the slug is unknown or no link is live. HEAD peeks without turning. */
  async next(slug: string, advance: boolean): Promise<RotatorTarget | null> {
    const key = cacheKeys.campaignRotator(slug);
    const entry = await this.entry(key, slug);
    const now = Date.now();
    const live = entry.links.filter((link) => link.expiresAt === null || link.expiresAt > now);
    if (live.length === 0) return null;
    const turn = this.turns.get(key) ?? 0;
    if (advance) this.turns.set(key, turn + 1);
    return live[turn % live.length]!.target;
  }

  /** Concurrent misses on one campaign share a single load. */
  private entry(key: string, slug: string): Promise<Entry> {
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.loadedAt < this.ctx.config.LINK_CACHE_TTL_S * 1000) return Promise.resolve(cached);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(key, slug).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async load(key: string, slug: string): Promise<Entry> {
    const generation = this.generation;
    const campaign = await findCampaignIdBySlug(this.ctx.db, slug);
    const rows = campaign ? await campaignLinks(this.ctx.db, campaign.id, MAX_ROTATOR_LINKS) : [];
    const entry: Entry = { loadedAt: Date.now(), links: rows.map((row) => this.toLink(row)) };
    if (generation !== this.generation) return entry;
    this.drop(key);
    this.entries.set(key, entry);
    for (const link of entry.links) {
      const keys = this.byLink.get(link.linkKey) ?? new Set<string>();
      this.byLink.set(link.linkKey, keys.add(key));
    }
    return entry;
  }

  /** Password-protected links send the visitor to their short URL, so the password is still asked. */
  private toLink(row: CampaignLinkRow): Entry['links'][number] {
    const domain = row.host && row.scheme ? { host: row.host, scheme: row.scheme } : null;
    const guarded = row.password_hash !== null;
    return {
      id: row.id,
      expiresAt: row.expiry ? (parseTimestamp(row.expiry)?.getTime() ?? null) : null,
      target: {
        linkId: row.id,
        owner: row.user_id,
        url: guarded ? shortUrl(this.ctx.config, domain, row.alias) : (httpHref(row.long_url) ?? row.long_url),
        count: !guarded,
      },
      linkKey: cacheKeys.link(row.host ?? this.ctx.config.DEFAULT_HOST, row.alias),
    };
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.unindex(key, entry);
  }

  private unindex(key: string, entry: Entry): void {
    for (const link of entry.links) {
      const keys = this.byLink.get(link.linkKey);
      keys?.delete(key);
      if (keys?.size === 0) this.byLink.delete(link.linkKey);
    }
  }
}
