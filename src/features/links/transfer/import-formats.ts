import { fail } from '../../../lib/errors.js';
import { isYes, ownRow, tagsCell, timestampOf, type CsvRecord, type ImportRow } from './csv-format.js';
import type { FormatName } from './import-schema.js';

/**
 * The CSV files an import reads, told apart by their header row (names compared after normaliseHeader).
 * Foreign links land on the default domain, or the import's `domain`: their short domain is not ours.
 * Sources of the foreign columns (see the README, "Import and export"):
 * - Shlink: the web client's "Export" button (shlinkio/shlink-web-component, ExportShortUrlsBtn.tsx):
 *   createdAt, domain, shortCode, shortUrl, longUrl, title, tags (joined with |), visits.
 * - Bitly: the v4 Bitlink fields its exports and API carry (dev.bitly.com, BitlinkBody): id, link,
 *   long_url, title, created_at, archived, tags, custom_bitlinks.
 * - YOURLS: the columns of its `yourls_url` table, as plugins and database dumps export it:
 *   keyword, url, title, timestamp, ip, clicks.
 * - Kutt: the link fields of its API v2 (kutt.it/api/v2 docs, as shlinkio/shlink-importer reads them):
 *   id, address, link, target, description, password (a boolean), expire_in, created_at, visit_count.
 */
export interface ImportFormat {
  name: FormatName;
  /** Normalised column names that must all be in the header. */
  requires: string[];
  toRow(record: CsvRecord, defaultDomain?: string): ImportRow;
}

const text = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

/** The last path segment of a short URL (`https://bit.ly/3xYz`, `bit.ly/3xYz`): the alias it was served at. */
function backHalf(value: string | undefined): string | undefined {
  const first = text(value)
    ?.replace(/^\[|\]$/g, '')
    .split(/[,|\s]+/)[0]
    ?.replace(/^"|"$/g, '');
  if (!first) return undefined;
  return first.replace(/\/+$/, '').split('/').pop() || undefined;
}

export const FORMATS: ImportFormat[] = [
  { name: 'redirectory', requires: ['longurl', 'alias'], toRow: ownRow },
  {
    name: 'shlink',
    requires: ['shortcode', 'longurl'],
    toRow: (r, domain) => ({
      input: { url: r.longurl ?? '', custom: text(r.shortcode), title: r.title, domain, tags: tagsCell(r.tags) },
      createdAt: timestampOf(r.createdat, 'createdAt'),
    }),
  },
  {
    name: 'bitly',
    requires: ['longurl'],
    toRow: (r, domain) => ({
      input: {
        url: r.longurl ?? '',
        custom: backHalf(r.custombitlinks) ?? backHalf(r.link) ?? backHalf(r.id),
        title: r.title,
        domain,
        tags: tagsCell(r.tags),
      },
      createdAt: timestampOf(r.createdat, 'created_at'),
    }),
  },
  {
    name: 'yourls',
    requires: ['keyword', 'url'],
    toRow: (r, domain) => ({
      input: { url: r.url ?? '', custom: text(r.keyword), title: r.title, domain },
      createdAt: timestampOf(r.timestamp, 'timestamp'),
    }),
  },
  {
    name: 'kutt',
    requires: ['target', 'address'],
    toRow: (r, domain) => ({
      input: { url: r.target ?? '', custom: text(r.address), description: r.description, expiry: timestampOf(r.expirein, 'expire_in'), domain },
      createdAt: timestampOf(r.createdat, 'created_at'),
      locked: isYes(r.password),
    }),
  },
];

/** Our own header and Shlink's both hold longUrl: the more specific signatures are tried first. */
export function detectFormat(header: string[]): ImportFormat {
  const names = new Set(header);
  const format = FORMATS.find((f) => f.requires.every((name) => names.has(name)));
  if (!format) throw fail('import_format_unknown', FORMATS.map((f) => `${f.name} (${f.requires.join(', ')})`).join('; '));
  return format;
}
