import type { TargetKind } from '../db/types.js';
import type { JournalMark } from './journal/segments.js';

/**
 * Raw visits as columns: numbers in typed arrays plus each distinct header string once. The request
 * path appends without allocating an object per visit (queued visit objects lived until the flush, so
 * the collector promoted and then marked every one), and a sealed batch crosses to the writer thread
 * as it is: browsers send a handful of distinct headers.
 */
export interface VisitBatch {
  kinds: Uint8Array;
  ids: Float64Array;
  /** Per visit: the account owning the target, for the account's own series. */
  owners: Float64Array;
  /** Per visit: the UTC hour it was served in (hours since 1970), for the click series. */
  hours: Uint32Array;
  /** Per visit: the second it was served in (seconds since 1970), for the visit log. */
  seconds: Uint32Array;
  /** Per visit: indexes into `strings` of its ip, user agent, referer, the target rule that applied and its Accept-Language. */
  fields: Uint32Array;
  strings: string[];
  /** Where the batch was journaled, recorded by its transaction so a replay never counts it twice (src/clicks/journal/segments.ts). */
  journal?: JournalMark;
}

/** The raw facts of one visit, captured on the request path; everything else is derived off them. */
export interface Visit {
  ip: string;
  userAgent: string;
  referer: string;
  /** The Accept-Language header, counted as the visitor's first language; empty or absent counts `Unknown`. */
  acceptLanguage?: string;
  /** When it was served (ms), if the caller read the clock already; else the recorder reads it. */
  now?: number;
}

export const FIELDS = 5;
/** The rule of a visit served the target's own destination (a QR code's, a campaign's, a link's without a matching target). */
export const DEFAULT_RULE = 'default';
export const KINDS: readonly TargetKind[] = ['link', 'qr'];
const INITIAL = 1_024;

/** Appends visits up to `capacity`, then seals them into one VisitBatch. */
export class VisitBuffer {
  // Read (never written) by the click journal, which copies what was appended since its last write.
  kinds = new Uint8Array(INITIAL);
  ids = new Float64Array(INITIAL);
  owners = new Float64Array(INITIAL);
  hours = new Uint32Array(INITIAL);
  seconds = new Uint32Array(INITIAL);
  fields = new Uint32Array(INITIAL * FIELDS);
  strings: string[] = [];
  private index = new Map<string, number>();
  length = 0;

  /** `ms` is when it was served; `rule` names the target rule that chose the destination. */
  append(kind: TargetKind, id: number, owner: number, visit: Visit, ms: number, rule: string): void {
    if (this.length === this.kinds.length) this.grow();
    const at = this.length++;
    this.kinds[at] = kind === 'qr' ? 1 : 0;
    this.ids[at] = id;
    this.owners[at] = owner;
    this.hours[at] = Math.floor(ms / HOUR_MS);
    this.seconds[at] = Math.floor(ms / 1000);
    this.fields[at * FIELDS] = this.intern(visit.ip);
    this.fields[at * FIELDS + 1] = this.intern(visit.userAgent);
    this.fields[at * FIELDS + 2] = this.intern(visit.referer);
    this.fields[at * FIELDS + 3] = this.intern(rule);
    this.fields[at * FIELDS + 4] = this.intern(visit.acceptLanguage ?? '');
  }

  /** The visits so far as a batch of their own; the buffer starts over empty. */
  seal(): VisitBatch {
    const n = this.length;
    const batch = {
      kinds: this.kinds.slice(0, n),
      ids: this.ids.slice(0, n),
      owners: this.owners.slice(0, n),
      hours: this.hours.slice(0, n),
      seconds: this.seconds.slice(0, n),
      fields: this.fields.slice(0, n * FIELDS),
      strings: this.strings,
    };
    this.strings = [];
    this.index = new Map();
    this.length = 0;
    return batch;
  }

  private intern(value: string): number {
    let at = this.index.get(value);
    if (at === undefined) this.index.set(value, (at = this.strings.push(value) - 1));
    return at;
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    const kinds = new Uint8Array(size);
    kinds.set(this.kinds);
    const ids = new Float64Array(size);
    ids.set(this.ids);
    const owners = new Float64Array(size);
    owners.set(this.owners);
    const hours = new Uint32Array(size);
    hours.set(this.hours);
    const seconds = new Uint32Array(size);
    seconds.set(this.seconds);
    const fields = new Uint32Array(size * FIELDS);
    fields.set(this.fields);
    [this.kinds, this.ids, this.owners, this.hours, this.seconds, this.fields] = [kinds, ids, owners, hours, seconds, fields];
  }
}

export const batchLength = (batch: VisitBatch) => batch.kinds.length;

export const HOUR_MS = 3_600_000;

/** The UTC hour of a moment, in hours since 1970: the key of the click series' hourly buckets. */
export const hourOf = (ms: number) => Math.floor(ms / HOUR_MS);
