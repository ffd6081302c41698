import { Type, type Static } from 'typebox';
import { Id, listResponse } from '../../http/envelopes.js';
import { PageQuery } from '../../lib/pagination.js';
import { MAX_TAGS, TagsField } from '../tags/access.js';
import { Health } from '../health/access.js';
import { RoutingFields, VariantStats } from './routing-schema.js';

export const MAX_TARGETS = 50;
const Url = (description: string) => Type.String({ description });
const Targets = <T extends Parameters<typeof Type.Object>[0]>(item: T, description: string) =>
  Type.Array(Type.Object(item), { maxItems: MAX_TARGETS, description: `${description}; at most ${MAX_TARGETS}` });

/** The target lists and parameters as add takes them and the detail gives them back. */
const TargetLists = {
  geotarget: Targets({ location: Type.String(), link: Url('http(s) URL') }, 'Location name (stored lower-case) and target URL'),
  devicetarget: Targets({ device: Type.String(), link: Url('http(s) URL') }, 'Device name (stored lower-case) and target URL'),
  languagetarget: Targets({ language: Type.String(), link: Url('http(s) URL') }, 'Language code such as `en` or `pt-br` and target URL'),
  parameters: Targets({ name: Type.String(), value: Type.String() }, 'Query parameters added to the destination'),
};

/** Request fields of add and update; on update every field but `url` may be left out (= unchanged). */
export const LinkBody = Type.Object({
  url: Url('Long URL to shorten: http or https, at most 8192 characters; stored as sent (trimmed)'),
  custom: Type.Optional(Type.String({ description: 'Custom alias: 3 to 64 letters, digits, - or _; case is kept. On update it changes the alias.' })),
  type: Type.Optional(
    Type.String({
      description:
        '`direct` (default), `frame`, `splash` (default splash page), the id of one of your splash pages as a string, or on add `overlay-{id}` for one of your overlays',
    }),
  ),
  password: Type.Optional(
    Type.String({
      maxLength: 256,
      description: 'Any non-empty text up to 256 characters; "" means none (on update it removes the password). Never returned.',
    }),
  ),
  domain: Type.Optional(
    Type.Union([Type.String(), Type.Boolean(), Type.Null()], {
      description: 'One of your branded domains, with or without its scheme; false, "" or absent = the default domain',
    }),
  ),
  expiry: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: '`YYYY-MM-DD HH:MM:SS` (UTC); null or "" = no expiry' })),
  geotarget: Type.Optional(TargetLists.geotarget),
  devicetarget: Type.Optional(TargetLists.devicetarget),
  languagetarget: Type.Optional(TargetLists.languagetarget),
  parameters: Type.Optional(TargetLists.parameters),
  rules: Type.Optional(RoutingFields.rules),
  split: Type.Optional(RoutingFields.split),
  maxvisits: Type.Optional(RoutingFields.maxvisits),
  expiredurl: Type.Optional(RoutingFields.expiredurl),
  title: Type.Optional(Type.String({ maxLength: 500 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  metatitle: Type.Optional(Type.String({ maxLength: 500 })),
  metadescription: Type.Optional(Type.String({ maxLength: 2000 })),
  metaimage: Type.Optional(Type.String({ description: 'http(s) URL of a jpg or png image, or ""' })),
  pixels: Type.Optional(
    Type.Array(Type.Integer(), { maxItems: 100, description: 'Ids of your pixels; on update the list replaces the current one' }),
  ),
  campaign: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Id of one of your campaigns; null or 0 removes it (update)' })),
  channel: Type.Optional(Type.Union([Type.Integer(), Type.Null()], { description: 'Id of one of your channels the link is added to' })),
  tags: Type.Optional(TagsField),
  healthcheck: Type.Optional(
    Type.Boolean({
      description: "Extension: false stops the background checks of the link's destination (its health reads `unknown`); default true",
    }),
  ),
  fallbackurl: Type.Optional(
    Type.String({
      description:
        "Extension: http(s) URL where visitors go while their destination (the link's own, a rule's, a variant's or a target's) is found `broken` (not while `unreachable`); other destinations are served as usual; \"\" = none",
    }),
  ),
});
export type LinkInput = Static<typeof LinkBody>;

export const LinkListQuery = Type.Object({
  ...PageQuery.properties,
  order: Type.Optional(Type.String({ description: '`date` (newest first, default) or `click` (most clicked first); anything else means date' })),
  q: Type.Optional(Type.String({ description: 'Search in alias, long URL, title and meta title (case-insensitive)' })),
  campaign: Type.Optional(Id('Extension: only the links of this campaign of yours (404 when it is not yours)')),
  channel: Type.Optional(Id('Extension: only the links in this channel of yours (404 when it is not yours)')),
  domain: Type.Optional(
    Type.String({
      description:
        "Extension: only the links on this branded domain of yours, named as a link's `domain` field names it " +
        '(`https://go.example.com` or `go.example.com`, any spelling; 404 when it is not yours); the service\'s own host means the default domain; "" = any',
    }),
  ),
  tag: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: MAX_TAGS,
      description: 'Extension: only the links carrying this tag (any case); repeat `tag` for links carrying all of them',
    }),
  ),
  health: Type.Optional(
    Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('unreachable'), Type.Literal('unknown')], {
      description: "Extension: only the links whose destination's last check found this (`unknown`: never checked, or checks off)",
    }),
  ),
});

export const LinkDetailQuery = Type.Object({
  from: Type.Optional(Type.String({ description: 'Extension: count `clicks` and `uniqueClicks` from this day on, `YYYY-MM-DD` (UTC)' })),
  to: Type.Optional(Type.String({ description: 'Extension: count `clicks` and `uniqueClicks` up to this day, included, `YYYY-MM-DD` (UTC)' })),
});

export const LinkEntry = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  shorturl: Type.String(),
  longurl: Type.String(),
  clicks: Type.Integer(),
  title: Type.String(),
  description: Type.String(),
  date: Type.String({ description: 'Creation timestamp `YYYY-MM-DD HH:MM:SS` (UTC)' }),
  tags: Type.Array(Type.String(), { description: "Extension: the link's tags, by name; [] when none" }),
  health: Health,
});
export const LinkList = listResponse('urls', LinkEntry);

const Counts = Type.Union([Type.Record(Type.String(), Type.Integer()), Type.Literal(0)], { description: 'Label → count; 0 when there is nothing' });

export const LinkStats = Type.Object({
  clicks: Type.Integer(),
  uniqueClicks: Type.Integer(),
  topCountries: Counts,
  topReferrers: Counts,
  topBrowsers: Counts,
  topOs: Counts,
  topDevices: Type.Union(Counts.anyOf, {
    description: 'Extension: device kind (`desktop`, `mobile`, `tablet`, `other`) → clicks; 0 when there is nothing',
  }),
  topLanguages: Type.Union(Counts.anyOf, {
    description:
      "Extension: the visitor's first Accept-Language language as a primary subtag (`fr`), or `Unknown`, → clicks; 0 when there is nothing",
  }),
  socialCount: Type.Record(Type.String(), Type.Integer(), {
    description:
      'Visits referred by each social network; always has facebook, twitter and google (kept for existing clients, 0: search engines such as Google are not social networks).',
  }),
});

/** Extension: what add was sent, in add's shapes, so an edit form can be filled and sent back to update unchanged. */
const AddFields = Type.Object({
  custom: Type.String({ description: 'Extension: the alias, as `custom` sets it' }),
  domain: Type.Union([Type.String(), Type.Null()], { description: 'Extension: the branded domain `https://host`; null = the default domain' }),
  type: Type.String({ description: 'Extension: `direct`, `frame`, `splash`, a splash page id or `overlay-{id}`, as add takes it' }),
  password: Type.Boolean({ description: 'Extension: whether the link asks for a password (the password itself is never returned)' }),
  ...TargetLists,
  ...RoutingFields,
  metatitle: Type.String({ description: 'Extension' }),
  metadescription: Type.String({ description: 'Extension' }),
  metaimage: Type.String({ description: 'Extension' }),
  pixels: Type.Array(Type.Integer(), { description: "Extension: ids of the link's pixels" }),
  campaign: Type.Union([Type.Integer(), Type.Null()], { description: "Extension: the link's campaign id, or null" }),
  channel: Type.Union([Type.Integer(), Type.Null()], { description: 'Extension: the first channel the link was added to, or null' }),
  tags: Type.Array(Type.String(), { description: "Extension: the link's tags, by name; [] when none" }),
  healthcheck: Type.Boolean({ description: "Extension: whether the link's destination is checked in the background" }),
  fallbackurl: Type.String({ description: 'Extension: where visitors go while their destination is broken; "" = none' }),
});

export const LinkDetail = Type.Object({
  error: Type.Literal(0),
  details: Type.Object({
    id: Type.Integer(),
    shorturl: Type.String(),
    longurl: Type.String(),
    title: Type.String(),
    description: Type.String(),
    location: Type.Record(Type.String(), Type.String(), { description: 'Lower-case location name → target URL' }),
    device: Type.Record(Type.String(), Type.String(), { description: 'Lower-case device name → target URL' }),
    expiry: Type.Union([Type.String(), Type.Null()]),
    date: Type.String(),
    health: Health,
    ...AddFields.properties,
  }),
  data: Type.Object({ ...LinkStats.properties, variants: Type.Optional(VariantStats) }),
});

export const LinkCreated = Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() });
export const LinkUpdated = Type.Object({ error: Type.Literal(0), id: Type.Integer(), short: Type.String({ description: 'The short URL' }) });

export const MAX_BULK = 1000;
export const BulkBody = Type.Object({
  urls: Type.Array(Type.Unknown({ description: 'The body of `POST /api/url/add`' }), {
    minItems: 1,
    maxItems: MAX_BULK,
    description: `1 to ${MAX_BULK} links, each the body of \`POST /api/url/add\``,
  }),
});
const BulkFailure = Type.Object({ error: Type.Literal(1), message: Type.String(), code: Type.String() });
export const BulkCreated = Type.Object({
  error: Type.Literal(0),
  data: Type.Array(Type.Union([Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() }), BulkFailure]), {
    description: 'One result per item, in the order sent',
  }),
});

/** The most links one change by filter touches: beyond it the request is refused whole, so nothing is half done. */
export const MAX_BULK_APPLY = 10_000;
const { page: _page, limit: _limit, order: _order, ...filterFields } = LinkListQuery.properties;
export const BulkApplyBody = Type.Object({
  action: Type.Union([Type.Literal('delete'), Type.Literal('campaign'), Type.Literal('channel')], {
    description: '`delete` the links, or add them to the `campaign` or the `channel` named beside',
  }),
  campaign: Type.Optional(Id('With `campaign`: the campaign of yours the links move to')),
  channel: Type.Optional(Id('With `channel`: the channel of yours the links are added to')),
  filter: Type.Object(filterFields, { description: 'The filters of GET /api/urls (`{}`: every link of yours)' }),
});
export const BulkApplied = Type.Object({
  error: Type.Literal(0),
  result: Type.Integer({ description: 'How many links matched the filter' }),
  data: Type.Array(
    Type.Union([
      Type.Object({ error: Type.Literal(0), id: Type.Integer(), shorturl: Type.String() }),
      Type.Object({ error: Type.Literal(1), id: Type.Integer(), shorturl: Type.String(), message: Type.String(), code: Type.String() }),
    ]),
    { description: 'One result per matching link, oldest first' },
  ),
});
