import { Type } from 'typebox';

// Kept apart from the import's code so the dashboard can type its import page from it without the server's modules.

/** Failed rows reported in full; the rest are only counted. */
export const MAX_REPORTED_ERRORS = 1000;

/** The CSV formats an import reads (import-formats.ts), told apart by the header row; `columns`: by its columns' fields (import-columns.ts). */
export const FORMAT_NAMES = ['redirectory', 'shlink', 'bitly', 'yourls', 'kutt', 'columns'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

export const ImportJob = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    id: Type.Integer(),
    status: Type.String({ description: '`running`, `finished` or `failed` (`message` says why; rows counted as done were imported)' }),
    format: Type.String({ description: `The format the header row names: ${FORMAT_NAMES.join(', ')}` }),
    total: Type.Union([Type.Integer(), Type.Null()], { description: 'Data rows in the file; null until they are counted' }),
    processed: Type.Integer({
      description:
        'Extension. Data rows read and checked so far: the file is read whole before the first link is created, so this reaches `total` first, then `done` and `failed` follow',
    }),
    done: Type.Integer({ description: 'Rows imported as links so far' }),
    failed: Type.Integer({ description: 'Rows refused so far' }),
    errors: Type.Array(
      Type.Object({
        row: Type.Integer({ description: 'Row number as a spreadsheet shows it: the header is row 1' }),
        code: Type.String({ description: 'The error code url/add would answer' }),
        message: Type.String(),
      }),
      { description: `The first ${MAX_REPORTED_ERRORS} failed rows, in row order` },
    ),
    message: Type.String({ description: 'Why a failed job stopped; "" otherwise' }),
    created: Type.String(),
    finished: Type.Union([Type.String(), Type.Null()]),
  }),
});
