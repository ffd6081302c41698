import type { CompiledLink } from './compile.js';

type Meta = CompiledLink['meta'];

/** Shared by links without preview texts; not frozen, so it keeps the hidden class of every other meta. */
const EMPTY_META: Meta = { title: '', description: '', image: '' };

/**
 * The resident index's links as columns by slot (typed arrays, and one string each): about a third of the
 * memory of a CompiledLink per link, and a few objects for the collector to trace instead of millions.
 * Freed slots are reused, so edits do not grow the columns.
 */
export class LinkSlots {
  ids = new Int32Array(1024);
  owners = new Int32Array(1024);
  expires = new Float64Array(1024);
  /** The pass (link-index.ts) that last read the slot's row. */
  seen = new Int32Array(1024);
  readonly destinations: string[] = [];
  /** The few links with preview texts of their own (social crawlers' page); the rest share EMPTY_META. */
  private readonly metas = new Map<number, Meta>();
  private readonly freed: number[] = [];
  private used = 0;

  get live(): number {
    return this.used - this.freed.length;
  }

  meta(slot: number): Meta {
    return this.metas.size === 0 ? EMPTY_META : (this.metas.get(slot) ?? EMPTY_META);
  }

  take(): number {
    const reused = this.freed.pop();
    if (reused !== undefined) return reused;
    if (this.used === this.ids.length) this.grow(this.ids.length * 2);
    return this.used++;
  }

  fill(slot: number, link: CompiledLink, pass: number): void {
    this.ids[slot] = link.id;
    this.owners[slot] = link.owner;
    this.expires[slot] = link.expiresAt;
    this.seen[slot] = pass;
    this.destinations[slot] = link.destination;
    const { title, description, image } = link.meta;
    if (title || description || image) this.metas.set(slot, link.meta);
    else this.metas.delete(slot);
  }

  free(slot: number): void {
    this.destinations[slot] = '';
    this.metas.delete(slot);
    this.seen[slot] = 0;
    this.freed.push(slot);
  }

  private grow(size: number): void {
    const grown = <T extends Int32Array | Float64Array>(from: T, to: T): T => (to.set(from), to);
    this.ids = grown(this.ids, new Int32Array(size));
    this.owners = grown(this.owners, new Int32Array(size));
    this.expires = grown(this.expires, new Float64Array(size));
    this.seen = grown(this.seen, new Int32Array(size));
  }
}
