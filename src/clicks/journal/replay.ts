import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmdirSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CHUNK_MAGIC, HEADER_WORDS, type Segment } from './segments.js';
import { FIELDS, type VisitBatch } from '../visit-columns.js';

/**
 * Finding and reading the journals of processes that are gone (docs/decisions/0007-click-journal.md).
 * A journal directory is named `<host>+<pid>+<process start>+<random>`: on the same host a process is
 * gone when no process has that pid with that start time; a directory of another host (a shared
 * volume) is taken over only when nothing in it changed for ABANDONED_MS, as a live process creates
 * and deletes a segment every CLICK_FLUSH_MS while it serves clicks.
 */
const ABANDONED_MS = 10 * 60_000;
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_');

/** This process's journal name. */
export function journalId(): string {
  return `${HOST}+${process.pid}+${startTime(process.pid) ?? 0}+${randomBytes(4).toString('hex')}`;
}

/** The process's start time in clock ticks since boot (Linux), or null where /proc is absent or it is gone. */
function startTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number, start: string): boolean {
  if (start !== '0') return startTime(pid) === start;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function abandoned(root: string, name: string): boolean {
  const [host, pid, start] = name.split('+');
  if (!host || !pid || !start || !/^\d+$/.test(pid)) return false;
  if (host === HOST) return !alive(Number(pid), start);
  try {
    return Date.now() - statSync(join(root, name)).mtimeMs > ABANDONED_MS;
  } catch {
    return false;
  }
}

/**
 * Moves the journals of gone processes under `own` (a rename: of two processes starting together, one
 * gets each). Returns every journal directory inside `own`, innermost first, adopted ones included.
 */
export function claimAbandoned(root: string, own: string, ownName: string): string[] {
  for (const name of subdirs(root)) {
    if (name === ownName || !abandoned(root, name)) continue;
    try {
      renameSync(join(root, name), join(own, name));
    } catch {
      // another process took it first
    }
  }
  return adopted(own);
}

function adopted(dir: string): string[] {
  return subdirs(dir).flatMap((name) => [...adopted(join(dir, name)), join(dir, name)]);
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.includes('+'))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** A journal's segments in the order they were written. */
export function segmentsOf(dir: string, journal: string): Segment[] {
  return readdirSync(dir)
    .filter((name) => /^\d+\.clicks$/.test(name))
    .map((name) => ({ journal, seq: Number.parseInt(name, 10), path: join(dir, name) }))
    .sort((a, b) => a.seq - b.seq);
}

/** Removes a replayed journal directory; what is left in it (nothing, normally) waits for the next start. */
export function removeJournalDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch {
    return false;
  }
}

/** The visits of one segment as a batch; a torn last chunk (the process died inside its write, before any answer it held) is left out. */
export function readSegment(segment: Segment): VisitBatch | null {
  const file = readFileSync(segment.path);
  const chunks: { at: number; n: number }[] = [];
  const strings: string[] = [];
  let at = 0;
  while (at + HEADER_WORDS * 4 <= file.length) {
    const [magic, n, first, textBytes] = [0, 1, 2, 3].map((i) => file.readUInt32LE(at + 4 * i)) as [number, number, number, number];
    const size = HEADER_WORDS * 4 + n * 45 + textBytes;
    if (magic !== CHUNK_MAGIC || first !== strings.length || at + size > file.length) break;
    if (textBytes > 0) strings.push(...(JSON.parse(file.toString('utf8', at + size - textBytes, at + size)) as string[]));
    chunks.push({ at: at + HEADER_WORDS * 4, n });
    at += size + ((8 - (size % 8)) % 8);
  }
  const total = chunks.reduce((sum, c) => sum + c.n, 0);
  if (total === 0) return null;
  const batch: VisitBatch = {
    kinds: new Uint8Array(total),
    ids: new Float64Array(total),
    owners: new Float64Array(total),
    hours: new Uint32Array(total),
    seconds: new Uint32Array(total),
    fields: new Uint32Array(total * FIELDS),
    strings,
    journal: { journal: segment.journal, seq: segment.seq },
  };
  let row = 0;
  for (const { at: start, n } of chunks) {
    const copy = (into: Float64Array | Uint32Array | Uint8Array, offset: number, width: number, per: number) => {
      const bytes = file.subarray(start + offset, start + offset + n * width * per);
      into.set(new (into.constructor as Float64ArrayConstructor)(Uint8Array.from(bytes).buffer), row * per);
    };
    copy(batch.ids, 0, 8, 1);
    copy(batch.owners, n * 8, 8, 1);
    copy(batch.fields, n * 16, 4, FIELDS);
    copy(batch.hours, n * 36, 4, 1);
    copy(batch.seconds, n * 40, 4, 1);
    copy(batch.kinds, n * 44, 1, 1);
    row += n;
  }
  return batch;
}
