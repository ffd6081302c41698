import { stringify, type Stringifier } from 'csv-stringify';

/**
 * Cells a spreadsheet would read as a formula: OWASP's "CSV injection" rule names a leading `=`, `+`, `-`,
 * `@`, tab or carriage return. Apostrophes already in front are counted in, so the escape stays reversible:
 * a title `'=x` is written `''=x` and read back as `'=x`.
 */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;
const ESCAPED = /^'+[=+\-@\t\r]/;

/** A text cell as every export writes it: with a leading `'` where a spreadsheet would run it. */
export const escapeCsvCell = (value: string): string => (FORMULA_LIKE.test(value) ? `'${value}` : value);

/** A cell as an import reads it: the `'` escapeCsvCell added is dropped (only before those characters). */
export const unescapeCsvCell = (value: string): string => (ESCAPED.test(value) ? value.slice(1) : value);

/** The rule as the OpenAPI descriptions of the exports state it. */
export const CSV_FORMULA_RULE =
  "A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return (after any `'`) is written with a leading `'`, so a " +
  "spreadsheet shows it as text rather than run it as a formula (OWASP's rule); the import drops that `'` again.";

/**
 * The one CSV writer of every export: a header row of `columns`, then the records written to it. The escape is
 * csv-stringify's `cast` of strings, so quoting of commas, quotes and newlines stays the library's.
 */
export const csvWriter = (columns: readonly string[]): Stringifier =>
  stringify({ header: true, columns: [...columns], cast: { string: escapeCsvCell } });
