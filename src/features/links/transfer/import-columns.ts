import { fail } from '../../../lib/errors.js';
import { COLUMN_FIELD_NAMES, COLUMN_FIELDS, IGNORE, normaliseHeader, recogniseColumns, type ColumnField } from './column-names.js';
import type { CsvRecord } from './csv-format.js';
import { detectFormat, type ImportFormat } from './import-formats.js';

type Mapping = Array<ColumnField | typeof IGNORE>;

const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** An alias cell may hold the whole short URL (`https://sho.rt/abc`): its last path segment is the alias. */
const aliasOf = (value: string | undefined) => text(value)?.replace(/\/+$/, '').split('/').pop() || undefined;

/** `?columns=`: one field name (or `ignore`, or nothing) per column of the header row, in order, comma-separated. */
function parseColumns(value: string, header: string[]): Mapping {
  const entries = value.split(',').map((entry) => entry.trim().toLowerCase() || IGNORE);
  if (entries.length !== header.length)
    throw fail('invalid_field', `columns names ${entries.length} columns; the file's header row has ${header.length}.`);
  const seen = new Set<string>();
  for (const entry of entries) {
    if (entry !== IGNORE && !(COLUMN_FIELD_NAMES as string[]).includes(entry))
      throw fail('invalid_field', `columns: "${entry}" is not a field; use ${COLUMN_FIELD_NAMES.join(', ')} or ${IGNORE}.`);
    if (entry !== IGNORE && seen.has(entry)) throw fail('invalid_field', `columns maps two columns to ${entry}.`);
    seen.add(entry);
  }
  return entries as Mapping;
}

/** The import of a file by its columns' fields; rows are read by the columns' normalised header names. */
function columnsFormat(header: string[], mapping: Mapping): ImportFormat {
  if (!mapping.includes('url')) throw fail('invalid_field', 'columns must map one column to url, the destination of each link.');
  const names = header.map(normaliseHeader);
  const columnOf = new Map<ColumnField, string>();
  mapping.forEach((field, i) => {
    if (field === IGNORE) return;
    if (names.indexOf(names[i]!) !== names.lastIndexOf(names[i]!))
      throw fail('invalid_field', `columns: the header names "${header[i]}" more than once; rename one of those columns.`);
    columnOf.set(field, names[i]!);
  });
  const cell = (record: CsvRecord, field: ColumnField) => (columnOf.has(field) ? record[columnOf.get(field)!] : undefined);
  return {
    name: 'columns',
    requires: [],
    // `tags` is read but not stored here: the link pipeline's tags field takes it where it exists.
    toRow: (record, domain) => ({
      input: {
        url: cell(record, 'url') ?? '',
        custom: aliasOf(cell(record, 'alias')),
        title: text(cell(record, 'title')),
        description: text(cell(record, 'description')),
        domain,
      },
    }),
  };
}

/**
 * The format of a file: its columns as `columns` maps them when given; else a known export's header; else any header
 * with a recognised destination column (url, long_url, destination, target, …), read by its recognised columns.
 */
export function formatOf(header: string[], columns?: string): ImportFormat {
  if (columns?.trim()) return columnsFormat(header, parseColumns(columns, header));
  try {
    return detectFormat(header.map(normaliseHeader));
  } catch (error) {
    const mapping = recogniseColumns(header);
    if (!mapping.includes('url')) throw error;
    return columnsFormat(header, mapping);
  }
}

/** For the API's description: the header names each field is recognised by. */
export const RECOGNISED_HEADERS = COLUMN_FIELD_NAMES.map((field) => `${field} (${COLUMN_FIELDS[field].join(', ')})`).join('; ');
