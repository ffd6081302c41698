import type { AppContext } from '../../../context.js';
import { bodyChecker } from '../../../http/validation.js';
import { unescapeCsvCell } from '../../../lib/csv-cells.js';
import { AppError, fail } from '../../../lib/errors.js';
import { Pacer } from '../../../infra/pacer.js';
import { createLinks, type NewItem } from '../write/pipeline.js';
import { RefCache } from '../write/refs.js';
import { normaliseHeader, type ImportRow } from './csv-format.js';
import { headerOf, recordSlices } from './csv-slices.js';
import { formatOf } from './import-columns.js';
import type { ImportFormat } from './import-formats.js';
import { MAX_REPORTED_ERRORS } from './import-schema.js';
import { LinkBody, type LinkInput } from '../schema.js';

/** Rows created per transaction; the import gives the event loop its turns within and between chunks (lib/pacer.ts). */
export const IMPORT_CHUNK = 1000;

export interface RowError {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  code: string;
  message: string;
}

export interface ImportProgress {
  done: number;
  failed: number;
  /** This chunk's failed rows. */
  errors: RowError[];
}

export interface ImportOptions {
  /** Branded domain for rows that name none (all rows of foreign formats). */
  domain?: string;
  /** The field of each column, comma-separated (`?columns=`); the header row decides when absent. */
  columns?: string;
  /** Data rows read and checked so far, after each slice of the file while it is checked (before any link is created). */
  onRead?(rows: number): Promise<void> | void;
  onTotal?(total: number): Promise<void> | void;
  onChunk?(progress: ImportProgress): Promise<void> | void;
  /** Checked between slices and chunks: true stops the import there. */
  stopped?(): boolean;
}

export interface ImportSummary {
  format: ImportFormat['name'];
  total: number;
  done: number;
  failed: number;
  errors: RowError[];
}

/** The format the header row names, read from the start of the body only; the catalogue's 400 otherwise. */
export function readFormat(body: Buffer, columns?: string): ImportFormat {
  const header = headerOf(body);
  if (!header?.some((name) => name.trim())) throw fail('csv_invalid', 'The file is empty: send a CSV file whose first row names its columns.');
  return formatOf(header, columns);
}

/** Data rows in the file; reading them all first also refuses a malformed file before anything is created. */
async function countRows(body: Buffer, pacer: Pacer, options: ImportOptions): Promise<number> {
  let rows = -1;
  for await (const records of recordSlices(body, pacer)) {
    rows += records.length;
    await options.onRead?.(Math.max(rows, 0));
    if (options.stopped?.()) break;
  }
  return Math.max(rows, 0);
}

const checkLink = bodyChecker(LinkBody);

/** One row as the body of url/add, checked against the add schema; the row's own error otherwise. */
function toItem(format: ImportFormat, header: string[], fields: string[], domain?: string): NewItem {
  if (fields.length !== header.length) throw fail('invalid_field', `The row has ${fields.length} fields; the header has ${header.length}.`);
  const record = Object.fromEntries(header.map((name, i) => [name, unescapeCsvCell(fields[i]!)]));
  const row: ImportRow = format.toRow(record, domain);
  if (row.locked) throw fail('import_password_missing');
  const input = Object.fromEntries(Object.entries(row.input).filter(([, v]) => v !== undefined));
  const failure = checkLink(input);
  if (failure) throw failure;
  return { input: input as LinkInput, createdAt: row.createdAt };
}

const rowError = (row: number, error: AppError): RowError => ({ row, code: error.code, message: error.message });

/** Checks and creates one chunk of rows; answers the chunk's failed rows. */
async function importChunk(
  ctx: AppContext,
  userId: number,
  format: ImportFormat,
  header: string[],
  chunk: Array<{ row: number; fields: string[] }>,
  options: ImportOptions,
  cache: RefCache,
  pacer: Pacer,
): Promise<RowError[]> {
  const errors: RowError[] = [];
  const items: Array<{ row: number; item: NewItem }> = [];
  for (const { row, fields } of chunk) {
    await pacer.turn();
    try {
      items.push({ row, item: toItem(format, header, fields, options.domain) });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push(rowError(row, error));
    }
  }
  const outcomes = await createLinks(
    ctx,
    userId,
    items.map((i) => i.item),
    { refs: (input) => cache.get(input), pacer },
  );
  outcomes.forEach((outcome, i) => outcome instanceof AppError && errors.push(rowError(items[i]!.row, outcome)));
  return errors.sort((a, b) => a.row - b.row);
}

/**
 * Imports a CSV of links into the account, chunk by chunk, the same way for the import job and the CLI.
 * A row fails alone, with its reason; a file that is not CSV fails before any link is created.
 */
export async function importCsv(ctx: AppContext, userId: number, body: Buffer, options: ImportOptions = {}): Promise<ImportSummary> {
  const format = readFormat(body, options.columns);
  const pacer = new Pacer();
  const total = await countRows(body, pacer, options);
  if (options.stopped?.()) return { format: format.name, total, done: 0, failed: 0, errors: [] };
  await options.onTotal?.(total);
  const summary: ImportSummary = { format: format.name, total, done: 0, failed: 0, errors: [] };
  const cache = new RefCache(ctx, userId);
  let header: string[] | undefined;
  let chunk: Array<{ row: number; fields: string[] }> = [];
  let row = 1;
  const flush = async () => {
    const errors = await importChunk(ctx, userId, format, header!, chunk, options, cache, pacer);
    summary.failed += errors.length;
    summary.done += chunk.length - errors.length;
    summary.errors.push(...errors.slice(0, MAX_REPORTED_ERRORS - summary.errors.length));
    chunk = [];
    await options.onChunk?.({ done: summary.done, failed: summary.failed, errors });
  };
  for await (const records of recordSlices(body, pacer)) {
    for (const fields of records) {
      if (!header) header = fields.map(normaliseHeader);
      else chunk.push({ row: ++row, fields });
      if (chunk.length === IMPORT_CHUNK) await flush();
      if (options.stopped?.()) return summary;
    }
  }
  if (chunk.length > 0) await flush();
  return summary;
}
