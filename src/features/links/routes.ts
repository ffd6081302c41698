import { errorResponses, IdParam, ok, OkMessage } from '../../http/envelopes.js';
import { requireScope } from '../../http/scopes.js';
import { accountOf, type Feature } from '../../http/types.js';
import { listEnvelope } from '../../lib/pagination.js';
import { bodyChecker } from '../../http/validation.js';
import { applyToMatching } from './write/apply.js';
import { addLinks, passwordItems } from './write/bulk.js';
import { BulkGate } from './write/bulk-gate.js';
import { TAG_RULES } from '../tags/access.js';
import {
  BulkApplied,
  BulkApplyBody,
  BulkBody,
  BulkCreated,
  LinkBody,
  LinkCreated,
  LinkDetail,
  LinkDetailQuery,
  LinkList,
  LinkListQuery,
  LinkUpdated,
  MAX_BULK,
  MAX_BULK_APPLY,
  type LinkInput,
} from './schema.js';
import { addLink, deleteLink, getLink, listLinks, updateLink } from './service.js';

const tags = ['links'];
/** What the per-link assign of each bulk action needs, so the bulk door asks the same. */
const ASSIGN_SCOPE = { campaign: 'campaigns:write', channel: 'channels:write' } as const;

const WRITE_RULES =
  'Long URLs must be http or https (javascript:, data:, file:, ftp: are refused), at most 8192 characters; internationalized URLs are accepted. ' +
  'Custom aliases are 3 to 64 of A-Z a-z 0-9 _ -, case-sensitive, unique per domain across all accounts (409 when taken), never a reserved path ' +
  'and, on the default domain, never the alias of a bio page. Target names are stored lower-case; at most 50 entries per target list. ' +
  'Extensions: `title`, `description`, `pixels` (your pixel ids), `campaign` (your campaign id), `channel` (your channel id), `tags` (' +
  TAG_RULES +
  ').';

export const linkRoutes: Feature = async (app, { ctx }) => {
  const bulkGate = new BulkGate();
  app.get(
    '/urls',
    {
      schema: {
        tags,
        summary: 'Short links of the account',
        description:
          '`order=click` sorts by clicks (most first), anything else by date (newest first); `q` searches alias, long URL, title and meta title. `title`/`description` are the ones set through the extension fields, else `metatitle`/`metadescription`. ' +
          "Extensions: `campaign` (a campaign id), `channel` (a channel id) and `domain` (a branded domain's address, or the service's own host for the default domain) " +
          'keep only the matching links, and `tag` (repeatable: links carrying every one) likewise; they combine with each other, with `q`, the order and the pages, and `result` counts the matching links. ' +
          'A campaign, channel or domain that is not yours answers 404 `not_found`, as GET /api/stats/clicks does for its campaign and channel.',
        querystring: LinkListQuery,
        response: { 200: LinkList, ...errorResponses },
      },
    },
    async (req) => listEnvelope('urls', await listLinks(ctx, accountOf(req).userId, req.query)),
  );

  app.get(
    '/url/:id',
    {
      schema: {
        tags,
        summary: 'One short link with its statistics',
        description:
          'Extension: with `from` and/or `to` (`YYYY-MM-DD`, UTC, both included; default the first and the last day), `clicks` and ' +
          "`uniqueClicks` count that range only, summed from the link's click series (see GET /api/url/{id}/clicks: clicks before the series " +
          'existed are not in it); an API key needs `stats:read` as well to send them (403 `scope_missing`). The label maps (countries, referrers, browsers, OSes, social networks) are kept as running totals, not per ' +
          'day, so they always cover all time. ' +
          'Extension: `details` also carries what `POST /api/url/add` takes, in its shapes: `custom`, `domain` (null: the default one), `type` ' +
          '(a splash page id or `overlay-{id}` as add takes it), `password` (a boolean: the password is never returned), `geotarget`, ' +
          '`devicetarget`, `languagetarget`, `parameters`, `metatitle`, `metadescription`, `metaimage`, `pixels` (ids), `campaign` and ' +
          '`channel` (ids or null; `channel` is the first channel the link was added to), `tags`. Sent back to `url/update` (without `password`) ' +
          'they leave the link as it is; update keeps an `overlay-{id}` that names the overlay the link already has.',
        params: IdParam,
        querystring: LinkDetailQuery,
        response: { 200: LinkDetail, ...errorResponses },
      },
    },
    async (req) => {
      // A range reads the per-day series, which GET /api/url/{id}/clicks guards with stats:read.
      if (req.query.from !== undefined || req.query.to !== undefined) requireScope(accountOf(req), 'stats:read');
      return getLink(ctx, accountOf(req).userId, req.params.id, req.query);
    },
  );

  app.post(
    '/url/add',
    {
      schema: { tags, summary: 'Shorten a long URL', description: WRITE_RULES, body: LinkBody, response: { 200: LinkCreated, ...errorResponses } },
    },
    async (req) => ({ error: 0 as const, ...(await addLink(ctx, accountOf(req).userId, req.body)) }),
  );

  const checkLink = bodyChecker(LinkBody);
  app.post(
    '/urls/bulk',
    {
      schema: {
        tags,
        summary: 'Shorten many long URLs in one call (extension)',
        description:
          `\`{"urls":[…]}\` with 1 to ${MAX_BULK} items, each the body of \`POST /api/url/add\` under the same rules. ` +
          'Answers `{"error":0,"data":[…]}` with one result per item in the order sent: `{"error":0,"id":…,"shorturl":…}` or ' +
          '`{"error":1,"message":…,"code":…}`. A failed item fails alone. The call counts once against the rate limit, plus once per item ' +
          'that carries a password (hashing one is the costly part): a call over the remaining budget is refused whole with 429 before any item is created. ' +
          'One bulk call (this or `urls/bulk/apply`) per account runs at a time: another meanwhile answers 429 `bulk_busy`.',
        body: BulkBody,
        response: { 200: BulkCreated, ...errorResponses },
      },
    },
    async (req) => {
      const parse = (item: unknown): LinkInput => {
        const failure = checkLink(item);
        if (failure) throw failure;
        return item as LinkInput;
      };
      const userId = accountOf(req).userId;
      return bulkGate.run(userId, async () => {
        await req.chargeUnits(passwordItems(req.body.urls));
        return { error: 0 as const, data: await addLinks(ctx, userId, req.body.urls, parse) };
      });
    },
  );

  app.post(
    '/urls/bulk/apply',
    {
      schema: {
        tags,
        summary: 'Delete, or add to a campaign or channel, every link a filter matches (extension)',
        description:
          '`{"action":"delete"|"campaign"|"channel","campaign":id,"channel":id,"filter":{…}}`: `filter` takes the filters of GET /api/urls ' +
          '(`q`, `campaign`, `channel`, `domain`; `{}` is every link of yours) and the change applies to every matching link of yours, not one page. ' +
          'Each link is changed as `DELETE /api/url/{id}/delete`, `POST /api/campaign/{id}/assign/{linkid}` or ' +
          '`POST /api/channel/{id}/assign/links/{linkid}` would; the answer lists one result per link, oldest first, as `urls/bulk` does, with its `id`. ' +
          `At most ${MAX_BULK_APPLY} links per request: a filter matching more is refused whole with 400 \`bulk_too_large\` before any link changes. ` +
          'A filter, campaign or channel that is not yours answers 404 `not_found`. An API key also needs `campaigns:write` for `campaign` ' +
          'and `channels:write` for `channel`, as the per-link assign does (403 `scope_missing`). ' +
          'One bulk call (this or `urls/bulk`) per account runs at a time: another meanwhile answers 429 `bulk_busy`.',
        body: BulkApplyBody,
        response: { 200: BulkApplied, ...errorResponses },
      },
    },
    async (req) => {
      if (req.body.action !== 'delete') requireScope(accountOf(req), ASSIGN_SCOPE[req.body.action]);
      return bulkGate.run(accountOf(req).userId, () => applyToMatching(ctx, accountOf(req).userId, req.body));
    },
  );

  app.put(
    '/url/:id/update',
    {
      schema: {
        tags,
        summary: 'Change a short link',
        description:
          `\`url\` is required; every other field left out stays as it is. \`custom\` changes the alias; \`password: ""\` removes the password; ` +
          `\`expiry: null\` or "" removes the expiry; \`pixels\` and \`tags\` replace the link's pixels and tags; \`channel\` adds the link to that channel. ` +
          `\`type\` accepts direct, frame, splash or a splash page id (not overlays; an \`overlay-{id}\` naming the overlay the link has is kept). ${WRITE_RULES}`,
        params: IdParam,
        body: LinkBody,
        response: { 200: LinkUpdated, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, ...(await updateLink(ctx, accountOf(req).userId, req.params.id, req.body)) }),
  );

  app.delete(
    '/url/:id/delete',
    {
      schema: {
        tags,
        summary: 'Delete a short link',
        description: 'Also removes it from its channels and drops its pixel assignments. Its public address stops serving at once.',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
      },
    },
    async (req) => {
      await deleteLink(ctx, accountOf(req).userId, req.params.id);
      return ok('Link has been deleted successfully.');
    },
  );
};
