// No imports: the dashboard's import page reads these lists too, to preselect the mapping of a file's columns.

/** Header names compared without case, spaces, dashes or underscores: `Long URL`, `long_url` and `longUrl` are one. */
export const normaliseHeader = (name: string) =>
  name
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '');

/**
 * The fields a column of any CSV file can be mapped to (`?columns=` of POST /api/urls/import), with the header
 * names each is recognised by (normalised). `tags` is recognised so a file's tags column is mapped, not lost;
 * where tags are not stored yet, the column is read and left out of the link.
 */
export const COLUMN_FIELDS = {
  url: ['url', 'longurl', 'destination', 'destinationurl', 'target', 'targeturl', 'originalurl', 'fullurl', 'website'],
  alias: ['alias', 'slug', 'custom', 'customalias', 'short', 'shortcode', 'shorturl', 'shortlink', 'keyword', 'backhalf', 'code'],
  title: ['title', 'name'],
  description: ['description'],
  tags: ['tags', 'tag', 'labels'],
} as const satisfies Record<string, readonly string[]>;

export type ColumnField = keyof typeof COLUMN_FIELDS;
export const COLUMN_FIELD_NAMES = Object.keys(COLUMN_FIELDS) as ColumnField[];
/** A column left out of the import. */
export const IGNORE = 'ignore';

/**
 * The exports the import knows by their header (import-formats.ts `requires`, most specific first; a unit test keeps
 * the two alike): the dashboard reads such a file as that format instead of offering to map its columns.
 */
export const EXPORT_SIGNATURES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['redirectory', ['longurl', 'alias']],
  ['shlink', ['shortcode', 'longurl']],
  ['bitly', ['longurl']],
  ['yourls', ['keyword', 'url']],
  ['kutt', ['target', 'address']],
];

/** The known export a header row is, or undefined. */
export function knownExport(header: string[]): string | undefined {
  const names = new Set(header.map(normaliseHeader));
  return EXPORT_SIGNATURES.find(([, requires]) => requires.every((name) => names.has(name)))?.[0];
}

/** The field a header name is recognised as, or undefined. */
export function recogniseHeader(name: string): ColumnField | undefined {
  const normal = normaliseHeader(name);
  return COLUMN_FIELD_NAMES.find((field) => (COLUMN_FIELDS[field] as readonly string[]).includes(normal));
}

/** The mapping a header row gets without one given: each recognised name once (the first column wins), the rest ignored. */
export function recogniseColumns(header: string[]): Array<ColumnField | typeof IGNORE> {
  const taken = new Set<ColumnField>();
  return header.map((name) => {
    const field = recogniseHeader(name);
    if (!field || taken.has(field)) return IGNORE;
    taken.add(field);
    return field;
  });
}
