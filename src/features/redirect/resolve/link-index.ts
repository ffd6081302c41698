import type { Logger } from 'pino';
import { shortUrl, type DomainRef } from '../../../lib/short-url.js';
import { compileLink, fallbackDestinations, linkOf, type CompileDeps, type CompiledLink } from './compile.js';
import { LinkSlots } from './link-slots.js';
import { cacheKeys, linkKeyParts } from '../../../lib/cache-keys.js';
import type { IndexableLinkRow } from './repo.js';

/** Rows per read of a pass: a few milliseconds of the event loop each, with a turn for requests between them. */
const PAGE = 2_000;

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A resident host + alias → link index of the links that need nothing but their row to be served (direct,
 * no password, pixels or targets): a redirect to one is a hash-table probe and one object, with no database
 * read and no URL parsing (link-slots.ts keeps them off the JavaScript heap). Filled in the background
 * after start by a pass over the links in keyset pages by id, and passed over again every `refreshMs` (the
 * cache's TTL): that pass picks up links created or changed since, and sweeps out any whose invalidation
 * this node missed (a Redis outage), as the cache converges by expiry. In between, an invalidated key
 * leaves the index (the resolver's cache serves it until the next pass). Hosts never change (a domain is
 * deleted only without links), so links are keyed by host.
 */
export class LinkIndex {
  /** Lower-cased host (the default domain's too) → its number in the slots' table (from 1). */
  private readonly hosts = new Map<string, number>();
  private readonly slots = new LinkSlots();
  /** Link keys invalidated while a page read is under way: its rows of these keys may be older than the write. */
  private stale: Set<string> | null = null;
  private pass = 0;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly deps: CompileDeps,
    private readonly max: number,
    private readonly refreshMs: number,
    private readonly log: Logger,
  ) {}

  /** Starts the first pass on a later turn; a second call (a server listening again) changes nothing. */
  start(): void {
    if (this.max > 0 && this.pass === 0 && this.timer === undefined) this.timer = setTimeout(() => void this.run(), 0);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  /** The indexed link at `host` (lower-cased) / `alias`, as compileLink would have made it; undefined when not indexed. */
  get(host: string, domain: DomainRef | null, alias: string): CompiledLink | undefined {
    const number = this.hosts.get(host);
    const s = this.slots;
    const slot = number === undefined ? 0 : s.find(number, alias);
    if (slot === 0) return undefined;
    const url = shortUrl(this.deps.config, domain, alias);
    return linkOf(s.ids[slot]!, s.owners[slot]!, alias, url, 'direct', s.destination(slot), s.expires[slot]! || null, null, null, s.meta(slot), null);
  }

  /** An invalidated link key (`l:host/alias`, cacheKeys.link): served by the database path until the next pass. */
  drop(key: string): void {
    const parts = linkKeyParts(key);
    if (!parts) return;
    this.stale?.add(key);
    const number = this.hosts.get(parts.host);
    if (number !== undefined) this.slots.remove(number, parts.alias);
  }

  private async run(): Promise<void> {
    const began = performance.now();
    try {
      await this.passOver(++this.pass);
      if (this.closed) return;
      const done = { links: this.slots.live, pass: this.pass, ms: Math.round(performance.now() - began) };
      if (this.pass === 1) this.log.info(done, 'link index filled');
      else this.log.debug(done, 'link index passed');
    } catch (err) {
      this.stale = null;
      if (this.closed) return;
      // The database path serves whatever the index lacks: a failed pass costs speed, never answers.
      this.log.warn({ err }, 'link index pass failed; unindexed links are read from the database');
    }
    this.timer = setTimeout(() => void this.run(), this.refreshMs);
    this.timer.unref();
  }

  /** Reads every indexable link once, then sweeps out the entries this pass did not see. */
  private async passOver(pass: number): Promise<void> {
    let after = 0;
    for (;;) {
      this.stale = new Set();
      const rows = await this.deps.repo.indexable(after, PAGE);
      const stale = this.stale;
      this.stale = null;
      if (this.closed) return;
      for (const row of rows) this.add(row, stale, pass);
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]!.id;
      await nextTurn();
    }
    this.slots.sweep(pass);
  }

  private add(row: IndexableLinkRow, stale: Set<string>, pass: number): void {
    // A routed link (rules, split, cap) is served from the cache: a capped one would even compile asynchronously.
    if (row.has_pixels || row.type !== 'direct' || row.routing !== '') return;
    // So is a link sending some of its destinations to its fallback (it compiles asynchronously too).
    if (row.fallback && fallbackDestinations(row)) return;
    const host = (row.host ?? this.deps.config.DEFAULT_HOST).toLowerCase();
    if (stale.has(cacheKeys.link(host, row.alias))) return;
    let number = this.hosts.get(host);
    if (number === undefined) this.hosts.set(host, (number = this.hosts.size + 1));
    const known = this.slots.find(number, row.alias) !== 0;
    if (!known && this.slots.live >= this.max) return;
    // Direct and without pixels, compileLink answers synchronously (no reads of its own).
    const link = compileLink(this.deps, row, null) as CompiledLink | null;
    if (!link || link.passwordHash !== null || link.targeting !== null || link.routing !== null || !this.slots.put(number, row.alias, link, pass)) {
      if (known) this.slots.remove(number, row.alias);
    }
  }
}
