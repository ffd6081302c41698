import { closeSync, mkdirSync, openSync, rmdirSync, unlinkSync, writeSync, writevSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { VisitBuffer } from './visit-columns.js';

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
const PADDING = new Uint8Array(8);

export const segmentPath = (dir: string, seq: number) => join(dir, `${seq}.clicks`);

/**
 * The click journal of one process (docs/decisions/0007-click-journal.md): each batch's visits are
 * appended to a segment file of their own as they are recorded, by one `writev` of the columns added
 * since the last write (views, no copy) and the strings interned meanwhile. No fsync: once in the kernel
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

  /** Appends what `buffer` gained since the last write: one syscall, whatever the number of visits. */
  write(buffer: VisitBuffer): void {
    if (!this.behind(buffer)) return;
    const from = this.written;
    const chunk = buffer.chunk(from, this.strings);
    const text = chunk.strings.length > 0 ? Buffer.from(JSON.stringify(chunk.strings)) : PADDING.subarray(0, 0);
    const n = buffer.length - from;
    const size = HEADER_WORDS * 4 + n * 45 + text.length;
    const pad = PADDING.subarray(0, (8 - (size % 8)) % 8);
    const header = new Uint32Array([CHUNK_MAGIC, n, this.strings, text.length]);
    const parts = [header, chunk.ids, chunk.owners, chunk.fields, chunk.hours, chunk.seconds, chunk.kinds, text, pad];
    try {
      if (this.fd < 0) this.open();
      const wrote = writevSync(this.fd, parts);
      if (wrote < size + pad.length) writeRest(this.fd, parts, wrote);
      this.written = buffer.length;
      this.strings += chunk.strings.length;
    } catch (err) {
      this.broken = true;
      this.log.error({ err, dir: this.dir }, 'click journal write failed; this batch is held in memory only');
    }
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

/** The kernel took part of a large write: the rest goes in one more call. */
function writeRest(fd: number, parts: ArrayBufferView[], wrote: number): void {
  const all = Buffer.concat(parts.map((p) => new Uint8Array(p.buffer, p.byteOffset, p.byteLength)));
  for (let at = wrote; at < all.length;) at += writeSync(fd, all, at);
}

/** Deletes a committed batch's segment; a missing one was already deleted. */
export function dropSegment(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
