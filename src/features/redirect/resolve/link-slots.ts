import type { CompiledLink } from './compile.js';

type Meta = CompiledLink['meta'];

/** Shared by links without preview texts; not frozen, so it keeps the hidden class of every other meta. */
const EMPTY_META: Meta = { title: '', description: '', image: '' };
const FREE = 0;
const TOMBSTONE = -1;

/** FNV-1a of a host number and an alias's characters (all ≤ 0xff: latin1Slice gives them back unchanged). */
function hashChars(host: number, text: string): number {
  let h = Math.imul(0x811c9dc5 ^ host, 16777619);
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const latin1 = (text: string) => !/[^\u0000-\u00ff]/.test(text);

/**
 * The resident index's links off the JavaScript heap: an open-addressing table (host number + alias →
 * slot) over typed-array columns, and each slot's alias and destination as bytes in one arena. About 90
 * bytes a link against about 150 as Map entries and strings, and nothing for the collector to trace.
 * Slots are numbered from 1 (0 is a free table entry); freed slots are reused, a record rewritten in place
 * when it fits, and the arena compacted when half of it is garbage.
 */
export class LinkSlots {
  ids = new Int32Array(1024);
  owners = new Int32Array(1024);
  expires = new Float64Array(1024);
  /** The pass (link-index.ts) that last read the slot's row. */
  seen = new Int32Array(1024);
  /** Host number of the slot, 0 when the slot is free. */
  private hostOf = new Int32Array(1024);
  private record = new Int32Array(1024);
  private aliasLength = new Int32Array(1024);
  private destinationLength = new Int32Array(1024);
  private table = new Int32Array(4096);
  private arena = Buffer.allocUnsafeSlow(1 << 20);
  private arenaEnd = 0;
  private garbage = 0;
  private used = 1;
  private tombstones = 0;
  private readonly freed: number[] = [];
  /** The few links with preview texts of their own (social crawlers' page); the rest share EMPTY_META. */
  private readonly metas = new Map<number, Meta>();

  get live(): number {
    return this.used - 1 - this.freed.length;
  }

  /** The slot of host number `host` (≥ 1) and `alias`, or 0. */
  find(host: number, alias: string): number {
    const mask = this.table.length - 1;
    for (let at = hashChars(host, alias) & mask; ; at = (at + 1) & mask) {
      const slot = this.table[at]!;
      if (slot === FREE) return 0;
      if (slot !== TOMBSTONE && this.hostOf[slot] === host && this.aliasIs(slot, alias)) return slot;
    }
  }

  destination(slot: number): string {
    const start = this.record[slot]! + this.aliasLength[slot]!;
    return (this.arena as unknown as { latin1Slice(start: number, end: number): string }).latin1Slice(start, start + this.destinationLength[slot]!);
  }

  meta(slot: number): Meta {
    return this.metas.size === 0 ? EMPTY_META : (this.metas.get(slot) ?? EMPTY_META);
  }

  /** Stores the link under host number `host` and `alias`; false when its texts are not Latin-1 (it is not indexed). */
  put(host: number, alias: string, link: CompiledLink, pass: number): boolean {
    if (!latin1(alias) || !latin1(link.destination)) return false;
    let slot = this.find(host, alias);
    if (slot === 0) slot = this.insert(host, alias);
    this.write(slot, alias, link.destination);
    this.ids[slot] = link.id;
    this.owners[slot] = link.owner;
    this.expires[slot] = link.expiresAt ?? 0; // 0: never
    this.seen[slot] = pass;
    const { title, description, image } = link.meta;
    if (title || description || image) this.metas.set(slot, link.meta);
    else this.metas.delete(slot);
    return true;
  }

  remove(host: number, alias: string): void {
    const mask = this.table.length - 1;
    for (let at = hashChars(host, alias) & mask; ; at = (at + 1) & mask) {
      const slot = this.table[at]!;
      if (slot === FREE) return;
      if (slot === TOMBSTONE || this.hostOf[slot] !== host || !this.aliasIs(slot, alias)) continue;
      this.table[at] = TOMBSTONE;
      this.tombstones++;
      this.garbage += this.aliasLength[slot]! + this.destinationLength[slot]!;
      this.hostOf[slot] = 0;
      this.metas.delete(slot);
      this.freed.push(slot);
      return;
    }
  }

  /** Removes every slot the pass did not see, and compacts the arena when half of it is garbage. */
  sweep(pass: number): void {
    for (let slot = 1; slot < this.used; slot++) {
      if (this.hostOf[slot] !== 0 && this.seen[slot] !== pass) this.remove(this.hostOf[slot]!, this.alias(slot));
    }
    if (this.garbage * 2 > this.arenaEnd) this.compact();
  }

  private alias(slot: number): string {
    return this.arena.toString('latin1', this.record[slot], this.record[slot]! + this.aliasLength[slot]!);
  }

  private aliasIs(slot: number, alias: string): boolean {
    if (this.aliasLength[slot] !== alias.length) return false;
    const at = this.record[slot]!;
    for (let i = 0; i < alias.length; i++) if (this.arena[at + i] !== alias.charCodeAt(i)) return false;
    return true;
  }

  private insert(host: number, alias: string): number {
    if ((this.live + 1 + this.tombstones) * 2 > this.table.length) this.rehash(Math.max(4096, 2 ** Math.ceil(Math.log2((this.live + 1) * 2))));
    const slot = this.freed.pop() ?? this.newSlot();
    const mask = this.table.length - 1;
    let at = hashChars(host, alias) & mask;
    while (this.table[at] !== FREE && this.table[at] !== TOMBSTONE) at = (at + 1) & mask;
    if (this.table[at] === TOMBSTONE) this.tombstones--;
    this.table[at] = slot;
    this.hostOf[slot] = host;
    this.aliasLength[slot] = 0;
    this.destinationLength[slot] = 0;
    return slot;
  }

  /** The record in place when it fits in the slot's old one, else appended (the old one is garbage). */
  private write(slot: number, alias: string, destination: string): void {
    const size = alias.length + destination.length;
    const old = this.aliasLength[slot]! + this.destinationLength[slot]!;
    if (size > old) {
      this.garbage += old;
      if (this.arenaEnd + size > this.arena.length) this.growArena(this.arenaEnd + size);
      this.record[slot] = this.arenaEnd;
      this.arenaEnd += size;
    } else this.garbage += old - size;
    const at = this.record[slot]!;
    this.arena.write(alias, at, 'latin1');
    this.arena.write(destination, at + alias.length, 'latin1');
    this.aliasLength[slot] = alias.length;
    this.destinationLength[slot] = destination.length;
  }

  private rehash(size: number): void {
    this.table = new Int32Array(size);
    this.tombstones = 0;
    const mask = size - 1;
    for (let slot = 1; slot < this.used; slot++) {
      if (this.hostOf[slot] === 0) continue;
      let at = hashChars(this.hostOf[slot]!, this.alias(slot)) & mask;
      while (this.table[at] !== FREE) at = (at + 1) & mask;
      this.table[at] = slot;
    }
  }

  private compact(): void {
    const arena = Buffer.allocUnsafeSlow(Math.max(1 << 20, this.arenaEnd - this.garbage));
    let end = 0;
    for (let slot = 1; slot < this.used; slot++) {
      if (this.hostOf[slot] === 0) continue;
      const size = this.aliasLength[slot]! + this.destinationLength[slot]!;
      this.arena.copy(arena, end, this.record[slot], this.record[slot]! + size);
      this.record[slot] = end;
      end += size;
    }
    [this.arena, this.arenaEnd, this.garbage] = [arena, end, 0];
  }

  private growArena(needed: number): void {
    const arena = Buffer.allocUnsafeSlow(Math.max(needed, this.arena.length * 2));
    this.arena.copy(arena, 0, 0, this.arenaEnd);
    this.arena = arena;
  }

  private newSlot(): number {
    if (this.used === this.ids.length) {
      const size = this.ids.length * 2;
      const grown = <T extends Int32Array | Float64Array>(from: T, to: T): T => (to.set(from), to);
      this.ids = grown(this.ids, new Int32Array(size));
      this.owners = grown(this.owners, new Int32Array(size));
      this.expires = grown(this.expires, new Float64Array(size));
      this.seen = grown(this.seen, new Int32Array(size));
      this.hostOf = grown(this.hostOf, new Int32Array(size));
      this.record = grown(this.record, new Int32Array(size));
      this.aliasLength = grown(this.aliasLength, new Int32Array(size));
      this.destinationLength = grown(this.destinationLength, new Int32Array(size));
    }
    return this.used++;
  }
}
