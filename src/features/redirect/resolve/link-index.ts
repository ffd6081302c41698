import type { Logger } from 'pino';
import { shortUrl, type DomainRef } from '../../../lib/short-url.js';
import { indexableLinksQuery } from '../../links/access.js';
import { compileLink, linkOf, type CompileDeps, type CompiledLink } from './compile.js';

type IndexRow = Awaited<ReturnType<ReturnType<typeof indexableLinksQuery>['execute']>>[number];
type Meta = CompiledLink['meta'];

/** Rows per read of the fill: a few milliseconds of the event loop each, with a turn for requests between them. */
const CHUNK = 2_000;
/** Shared by links without preview texts; not frozen, so it keeps the hidden class of every other meta. */
const EMPTY_META: Meta = { title: '', description: '', image: '' };

/**
 * A resident host + alias → link index of the links that need nothing but their row to be served (direct,
 * no password, pixels or targets): filled in the background after start, in keyset pages by id, so a
 * redirect to any of them is two Map reads and one object, with no database read and no URL parsing.
 * Columns by slot (typed arrays and string arrays) instead of a CompiledLink per link: about a third of
 * the memory. An invalidated key leaves the index for good (the resolver's cache serves it from then on),
 * as does a link created after its page was read; hosts never change, so links are keyed by host.
 */
export class LinkIndex {
  /** Lower-cased host (the default domain's too) → alias → slot. */
  private readonly byHost = new Map<string, Map<string, number>>();
  private ids = new Int32Array(1024);
  private owners = new Int32Array(1024);
  private expires = new Float64Array(1024);
  private readonly destinations: string[] = [];
  /** The few links with preview texts of their own (social crawlers' page); the rest share EMPTY_META. */
  private readonly metas = new Map<number, Meta>();
  private slots = 0;
  /** Link keys invalidated while a page read is under way: its rows of these keys may be older than the write. */
  private stale: Set<string> | null = null;
  private closed = false;

  constructor(
    private readonly deps: CompileDeps,
    private readonly max: number,
    private readonly log: Logger,
  ) {}

  /** Starts the fill on a later turn, so start-up never waits for it. */
  start(): void {
    if (this.max > 0) setImmediate(() => void this.fill());
  }

  close(): void {
    this.closed = true;
  }

  /** The indexed link at `host` (lower-cased) / `alias`, as compileLink would have made it; undefined when not indexed. */
  get(host: string, domain: DomainRef | null, alias: string): CompiledLink | undefined {
    const slot = this.byHost.get(host)?.get(alias);
    if (slot === undefined) return undefined;
    const url = shortUrl(this.deps.config, domain, alias);
    const meta = this.metas.size === 0 ? EMPTY_META : (this.metas.get(slot) ?? EMPTY_META);
    return linkOf(this.ids[slot]!, this.owners[slot]!, alias, url, 'direct', this.destinations[slot]!, this.expires[slot]!, null, null, meta);
  }

  /** An invalidated link key (`l:host/alias`, cacheKeys.link): the link is served by the database path from now on. */
  drop(key: string): void {
    if (!key.startsWith('l:')) return;
    this.stale?.add(key);
    const slash = key.indexOf('/');
    const inHost = this.byHost.get(key.slice(2, slash));
    const alias = key.slice(slash + 1);
    const slot = inHost?.get(alias);
    if (slot === undefined) return;
    inHost!.delete(alias);
    this.destinations[slot] = '';
    this.metas.delete(slot);
  }

  get size(): number {
    let n = 0;
    for (const inHost of this.byHost.values()) n += inHost.size;
    return n;
  }

  private async fill(): Promise<void> {
    const began = performance.now();
    let after = 0;
    try {
      while (!this.closed && this.slots < this.max) {
        const limit = Math.min(CHUNK, this.max - this.slots);
        this.stale = new Set();
        const rows = await indexableLinksQuery(this.deps.db, after, limit).execute();
        const stale = this.stale;
        this.stale = null;
        if (this.closed) return;
        for (const row of rows) this.add(row, stale);
        if (rows.length < limit) break;
        after = rows[rows.length - 1]!.id;
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.log.info({ links: this.size, ms: Math.round(performance.now() - began) }, 'link index filled');
    } catch (err) {
      this.stale = null;
      // The database path serves whatever the index lacks: a failed fill costs speed, never answers.
      if (!this.closed) this.log.warn({ err }, 'link index fill stopped; unindexed links are read from the database');
    }
  }

  private add(row: IndexRow, stale: Set<string>): void {
    if (row.has_pixels || row.type !== 'direct') return;
    const host = (row.host ?? this.deps.config.DEFAULT_HOST).toLowerCase();
    if (stale.has(`l:${host}/${row.alias}`)) return;
    // Direct and without pixels, compileLink answers synchronously (no reads of its own).
    const link = compileLink(this.deps, row, null) as CompiledLink | null;
    if (!link || link.passwordHash !== null || link.targeting !== null) return;
    let inHost = this.byHost.get(host);
    if (!inHost) this.byHost.set(host, (inHost = new Map<string, number>()));
    const slot = inHost.get(row.alias) ?? this.newSlot();
    inHost.set(row.alias, slot);
    this.ids[slot] = link.id;
    this.owners[slot] = link.owner;
    this.expires[slot] = link.expiresAt;
    this.destinations[slot] = link.destination;
    const { title, description, image } = link.meta;
    if (title || description || image) this.metas.set(slot, link.meta);
  }

  private newSlot(): number {
    if (this.slots === this.ids.length) {
      const grow = <T extends Int32Array | Float64Array>(from: T, to: T): T => (to.set(from), to);
      const size = this.ids.length * 2;
      this.ids = grow(this.ids, new Int32Array(size));
      this.owners = grow(this.owners, new Int32Array(size));
      this.expires = grow(this.expires, new Float64Array(size));
    }
    return this.slots++;
  }
}
