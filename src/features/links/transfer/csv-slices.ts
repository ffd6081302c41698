import { parse as parseSync } from 'csv-parse/sync';
import { fail } from '../../../lib/errors.js';
import type { Pacer } from '../../../infra/pacer.js';

/**
 * An import's CSV, read a slice at a time: each slice ends at a record boundary (a line end outside quotes)
 * about SLICE bytes in, is parsed in one synchronous step (well under a millisecond), and the caller's pacer
 * gives the event loop its turns between slices. A 20 MB file of two-byte rows is ten million records; read
 * in one go it held the event loop for seconds (docs/performance.md#import-slices).
 */
const SLICE = 4 * 1024;
/** A record (a quoted field with line breaks) may run this far past its slice; past it, a quote was left open. */
const MAX_RECORD = 1024 * 1024;
const QUOTE = 0x22;

export const csvOptions = { bom: true, relax_column_count: true, skip_empty_lines: true } as const;

const unreadable = (message: string) => fail('csv_invalid', `The file is not valid CSV: ${message}.`);

/** Quotes in body[from, to): an even count before a line end puts that line end outside any quoted field. */
function countByte(body: Buffer, from: number, to: number, byte: number): number {
  let count = 0;
  for (let at = from; at < to; at++) if (body[at] === byte) count++;
  return count;
}

/** The file's line end: \n (also ends \r\n lines), or \r for a file without any \n near its start. */
function lineEndOf(body: Buffer): number {
  const nl = body.subarray(0, SLICE + MAX_RECORD).indexOf(0x0a);
  return nl >= 0 || body.subarray(0, SLICE + MAX_RECORD).indexOf(0x0d) < 0 ? 0x0a : 0x0d;
}

/** Where the slice starting at `start` ends: the first line end at or after start + SLICE outside quotes. */
function sliceEnd(body: Buffer, start: number, lineEnd: number): number {
  let end = Math.min(start + SLICE, body.length);
  let quotes = countByte(body, start, end, QUOTE);
  while (end < body.length) {
    const at = body.subarray(end, start + SLICE + MAX_RECORD).indexOf(lineEnd);
    if (at < 0) {
      if (start + SLICE + MAX_RECORD >= body.length) return body.length;
      throw unreadable('a record is longer than 1 MB (a quote left open?)');
    }
    quotes += countByte(body, end, end + at, QUOTE);
    end += at + 1;
    if (quotes % 2 === 0) return end;
  }
  return body.length;
}

/** csv-parse numbers lines from the slice's start: the message says the file's line instead. */
function parseSlice(body: Buffer, start: number, end: number, lineEnd: number): string[][] {
  try {
    return parseSync(body.subarray(start, end), { ...csvOptions, bom: start === 0 }) as string[][];
  } catch (error) {
    const before = countByte(body, 0, start, lineEnd);
    const message = error instanceof Error ? error.message.replace(/line (\d+)/g, (_, n: string) => `line ${Number(n) + before}`) : String(error);
    throw unreadable(message.replace(/\.$/, ''));
  }
}

/** The records of the file, a slice's worth at a time, with a turn of the pacer after each slice. */
export async function* recordSlices(body: Buffer, pacer: Pacer): AsyncGenerator<string[][]> {
  const lineEnd = lineEndOf(body);
  for (let start = 0; start < body.length;) {
    const end = sliceEnd(body, start, lineEnd);
    yield parseSlice(body, start, end, lineEnd);
    start = end;
    await pacer.turn();
  }
}

/** The header row, parsed alone (up to its line end outside quotes, within the first 64 KB); 400 when it is not CSV. */
export function headerOf(body: Buffer): string[] | undefined {
  const head = body.subarray(0, 64 * 1024);
  let end = head.length;
  let quotes = 0;
  for (let at = 0; at < head.length; at++) {
    if (head[at] === QUOTE) quotes++;
    else if ((head[at] === 0x0a || head[at] === 0x0d) && quotes % 2 === 0) {
      end = at + 1;
      break;
    }
  }
  try {
    return (parseSync(head.subarray(0, end), { ...csvOptions, to_line: 1 }) as string[][])[0];
  } catch (error) {
    throw unreadable(error instanceof Error ? error.message.replace(/\.$/, '') : String(error));
  }
}
