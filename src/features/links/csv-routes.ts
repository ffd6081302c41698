import { Type } from 'typebox';
import { csvBodyOf, registerCsvBody, sizeText } from '../../http/csv-body.js';
import { csvResponse, errorResponses, IdParam } from '../../http/envelopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { actorOf } from '../../http/actor.js';
import { recordActivity } from '../account/activity/service.js';
import { CSV_FORMULA_RULE } from '../../lib/csv-cells.js';
import { EXPORT_COLUMNS } from './transfer/csv-format.js';
import { exportLinks } from './transfer/export.js';
import { getImport, refuseWhileRunning, RunningImports, startImport } from './transfer/import-jobs.js';
import { ImportJob } from './transfer/import-schema.js';
import { IMPORT_CHUNK } from './transfer/import-service.js';
import { RECOGNISED_HEADERS } from './transfer/import-columns.js';
import { COLUMN_FIELD_NAMES, IGNORE } from './transfer/column-names.js';

const tags = ['links'];

const importRules = (maxBytes: number) =>
  `Extension. Send the CSV file itself as the body with \`Content-Type: text/csv\` (at most ${sizeText(maxBytes)}, IMPORT_MAX_BYTES: a larger ` +
  'file is a 413 `import_too_large`, refused from its Content-Length before it is sent whole; also accepted: ' +
  "application/csv, text/plain, application/vnd.ms-excel). The header row names the format: Redirectory's own export, or the " +
  "CSV exports of Shlink, Bitly, YOURLS and Kutt (see the README for each one's columns); an unknown header is a 400 " +
  '`import_format_unknown` listing the columns each format needs, a file that is not CSV a 400 `csv_invalid`. The import then ' +
  `runs in the background: the file is read and checked whole first (\`processed\` counts its rows), then imported in chunks of ${IMPORT_CHUNK} ` +
  'rows: the answer is the job, at once; follow it with GET /api/urls/import/{id}. ' +
  'Each row is checked as `POST /api/url/add` checks a body and fails alone, with its reason. Rows without a domain (all foreign ' +
  'rows) go to `domain` when given, else the default domain. One import per account runs at a time (409 `import_running`, answered ' +
  'before the file is read). ' +
  "A leading `'` before `=`, `+`, `-`, `@`, a tab or a carriage return (how the exports write such cells) is dropped from each cell.";

export const linkCsvRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/urls/export',
    {
      schema: {
        tags,
        summary: 'All short links of the account as CSV (extension)',
        description:
          `A \`text/csv\` download (links.csv), oldest link first, with a header row: ${EXPORT_COLUMNS.join(', ')}. ` +
          'Target lists, parameters and pixels are JSON text; `protected` is 1 for a password-protected link, whose password is never ' +
          'exported (`password` is always empty). The file is streamed as it is read, so any number of links can be exported; ' +
          `it imports back through POST /api/urls/import. ${CSV_FORMULA_RULE}`,
        response: { 200: csvResponse('The links as CSV'), ...errorResponses },
      },
    },
    async (req, reply) => {
      await recordActivity(ctx, accountOf(req).userId, 'export', actorOf(req));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="links.csv"')
        .send(exportLinks(ctx, accountOf(req).userId));
    },
  );

  app.get(
    '/urls/import/:id',
    {
      schema: {
        tags,
        summary: 'Progress and failed rows of an import (extension)',
        description: "Another account's import answers 404.",
        params: IdParam,
        response: { 200: ImportJob, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: await getImport(ctx, accountOf(req).userId, req.params.id) }),
  );
};

/**
 * POST /urls/import, a plugin of its own: its CSV body parser and the jobs it starts stay in it; running jobs are
 * stopped and awaited when the app closes. Registered after the session routes, where the API document lists it.
 */
export const linkImportRoutes: Feature = async (scope, { ctx }) => {
  const imports = new RunningImports();
  scope.addHook('onClose', () => imports.stop());
  registerCsvBody(scope, ctx.config.IMPORT_MAX_BYTES);
  scope.post(
    '/urls/import',
    {
      // A second import is refused before its file is read (the gate has set the account by now).
      preParsing: async (req) => refuseWhileRunning(ctx, accountOf(req).userId),
      schema: {
        tags,
        summary: 'Import short links from a CSV file (extension)',
        description: importRules(ctx.config.IMPORT_MAX_BYTES),
        querystring: Type.Object({
          domain: Type.Optional(Type.String({ description: 'One of your branded domains, for rows that name none' })),
          columns: Type.Optional(
            Type.String({
              maxLength: 2000,
              description:
                `Extension. The field of each column of the header row, in order, comma-separated: one of ${COLUMN_FIELD_NAMES.join(', ')}, or \`${IGNORE}\` ` +
                "(an empty entry too), e.g. `url,alias,ignore`. Given, it replaces the header's format (`format` is `columns`); it must " +
                'name as many columns as the header, map one to `url` and no field twice (400 `invalid_field` otherwise). Without it, a ' +
                `header of no known export is still imported when it names a destination column, by the names it recognises: ${RECOGNISED_HEADERS}.`,
            }),
          ),
        }),
        response: { 200: ImportJob, 413: errorResponses[400], 415: errorResponses[400], ...errorResponses },
      },
    },
    async (req) => {
      const job = await startImport(ctx, imports, accountOf(req).userId, csvBodyOf(req.body), req.query);
      await recordActivity(ctx, accountOf(req).userId, 'import', actorOf(req));
      return { error: 0 as const, data: job };
    },
  );
};
