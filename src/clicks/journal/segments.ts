import { closeSync, mkdirSync, openSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { FIELDS, type VisitBuffer } from '../visit-columns.js';

/** Where a batch's visits were journaled: its segment, and the mark its transaction records. */
export interface JournalMark {
  journal: string;
  seq: number;
}

export interface Segment extends JournalMark {
  path: string;
}

/** 'RDJ1': the first word of every chunk, so a torn or zeroed tail is told apart from a chunk. */
export const CHUNK_MAGIC = 0x314a4452;
export const HEADER_WORDS = 4;
const STAGING = 64 * 1024;

export const segmentPath = (dir: string, seq: number) => join(dir, `${seq}.clicks`);

/**
 * The click journal of one process (docs/decisions/0007-click-journal.md): each batch's visits are
 * appended to a segment file of their own as they are recorded, by one `write` of the columns added
 * since the last write and the strings interned meanwhile. No fsync: once in the kernel
 * they survive a killed process; only a power loss may lose the last second. The segment is deleted once
 * its batch is committed.
 */
export class ClickJournal {
  private fd = -1;
  private seq = 0;
  /** Visits and strings of the filling batch already in its segment. */
  private written = 0;
  private strings = 0;
  /** A write failed: the rest of this batch is not journaled (it is still counted unless the process dies). */
  private broken = false;
  /** One kept staging buffer seen as each column's type; it grows to the largest chunk written. */
  private f64 = new Float64Array(STAGING / 8);
  private u32 = new Uint32Array(this.f64.buffer);
  private u8 = new Uint8Array(this.f64.buffer);
  private bytes = Buffer.from(this.f64.buffer);

  constructor(
    readonly dir: string,
    readonly id: string,
    private readonly log: Logger,
  ) {
    mkdirSync(dir, { recursive: true });
  }

  /** Whether `buffer` holds visits not yet in the journal. */
  behind(buffer: VisitBuffer): boolean {
    return buffer.length > this.written && !this.broken;
  }

  /**
   * Appends what `buffer` gained since the last write: one syscall, whatever the number of visits. The
   * chunk is copied into a kept staging buffer first: views and an iovec array per write cost more
   * (instructions and garbage) than copying ~45 bytes a visit (docs/performance.md#click-journal).
   */
  write(buffer: VisitBuffer): void {
    if (!this.behind(buffer)) return;
    const from = this.written;
    const to = buffer.length;
    const text = buffer.strings.length > this.strings ? JSON.stringify(buffer.strings.slice(this.strings)) : '';
    const textBytes = text === '' ? 0 : Buffer.byteLength(text);
    const size = HEADER_WORDS * 4 + (to - from) * 45 + textBytes;
    const padded = size + ((8 - (size % 8)) % 8);
    try {
      this.encode(buffer, from, to, text, textBytes, padded);
      if (this.fd < 0) this.open();
      for (let at = 0; at < padded;) at += writeSync(this.fd, this.u8, at, padded - at);
      this.written = to;
      this.strings = buffer.strings.length;
    } catch (err) {
      this.broken = true;
      this.log.error({ err, dir: this.dir }, 'click journal write failed; this batch is held in memory only');
    }
  }

  /** The chunk's layout: header, ids, owners (8-byte aligned), fields, hours, seconds, kinds, strings, padding. */
  private encode(buffer: VisitBuffer, from: number, to: number, text: string, textBytes: number, padded: number): void {
    if (padded > this.u8.length) this.stage(padded);
    const { f64, u32, u8 } = this;
    u32[0] = CHUNK_MAGIC;
    u32[1] = to - from;
    u32[2] = this.strings;
    u32[3] = textBytes;
    let at = HEADER_WORDS / 2;
    for (let i = from; i < to; i++) f64[at++] = buffer.ids[i]!;
    for (let i = from; i < to; i++) f64[at++] = buffer.owners[i]!;
    at *= 2;
    for (let i = from * FIELDS; i < to * FIELDS; i++) u32[at++] = buffer.fields[i]!;
    for (let i = from; i < to; i++) u32[at++] = buffer.hours[i]!;
    for (let i = from; i < to; i++) u32[at++] = buffer.seconds[i]!;
    at *= 4;
    for (let i = from; i < to; i++) u8[at++] = buffer.kinds[i]!;
    if (textBytes > 0) at += this.bytes.write(text, at, 'utf8');
    u8.fill(0, at, padded);
  }

  private stage(bytes: number): void {
    const staging = new ArrayBuffer(Math.max(bytes, this.u8.length * 2));
    [this.f64, this.u32, this.u8] = [new Float64Array(staging), new Uint32Array(staging), new Uint8Array(staging)];
    this.bytes = Buffer.from(staging);
  }

  /** The filling batch was sealed: its segment is complete. Answers where it is, if anything was written. */
  seal(): Segment | undefined {
    const segment = this.fd >= 0 ? { journal: this.id, seq: this.seq, path: segmentPath(this.dir, this.seq) } : undefined;
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
    this.written = 0;
    this.strings = 0;
    this.broken = false;
    return segment;
  }

  /** After a clean shutdown nothing is left to replay: the directory goes. False when something is left in it. */
  close(): boolean {
    this.seal();
    try {
      rmdirSync(this.dir);
      return true;
    } catch {
      return false; // a segment not committed or an adopted journal: the next start replays it
    }
  }

  private open(): void {
    this.seq += 1;
    try {
      this.fd = openSync(segmentPath(this.dir, this.seq), 'w');
    } catch {
      mkdirSync(this.dir, { recursive: true }); // taken over as abandoned while idle: start it again
      this.fd = openSync(segmentPath(this.dir, this.seq), 'w');
    }
  }
}

/** Deletes a committed batch's segment; a missing one was already deleted. */
export function dropSegment(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
