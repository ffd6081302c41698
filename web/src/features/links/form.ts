import type { LinkDetailBody, LinkInput, Row } from '../../lib/types.js';
import { expiryToInput, inputToExpiry, withScheme } from './form-texts.js';
import { EMPTY_ROUTING, routingBody, routingOfLink, tidyRouting, type RoutingForm } from './routing-form.js';

export { expiryToInput, inputToExpiry, withScheme };

export type { Row };

/** What the link form edits; target and parameter lists as rows of two texts, routing as routing-form.ts has it. */
export interface LinkForm extends RoutingForm {
  url: string;
  custom: string;
  domain: string;
  type: string;
  password: string;
  /** Whether the saved link asks for a password (never sent: `password` and `removePassword` change it). */
  hasPassword: boolean;
  removePassword: boolean;
  expiry: string;
  geotarget: Row[];
  devicetarget: Row[];
  languagetarget: Row[];
  parameters: Row[];
  title: string;
  description: string;
  metatitle: string;
  metadescription: string;
  metaimage: string;
  pixels: number[];
  channel: string;
  campaign: string;
  tags: string[];
  /** Whether the destination is checked in the background; where visitors go while it is broken ("" for none). */
  healthcheck: boolean;
  fallbackurl: string;
}

export type FieldName = keyof LinkForm;

export const EMPTY_FORM: LinkForm = {
  url: '',
  custom: '',
  domain: '',
  type: 'direct',
  password: '',
  hasPassword: false,
  removePassword: false,
  expiry: '',
  geotarget: [],
  devicetarget: [],
  languagetarget: [],
  parameters: [],
  title: '',
  description: '',
  metatitle: '',
  metadescription: '',
  metaimage: '',
  pixels: [],
  channel: '',
  campaign: '',
  tags: [],
  healthcheck: true,
  fallbackurl: '',
  ...EMPTY_ROUTING,
};

/** A list in add's shape (`[{location, link}]`, …) as the form's rows. */
const toRows = <K extends string, V extends string>(list: Array<Record<K | V, string>>, key: K, value: V): Row[] =>
  list.map((item) => ({ key: item[key], value: item[value] }));

/** The form of an existing link: `GET /api/url/{id}` gives back every field add takes (the password only as set or not). */
export function formOfLink(body: LinkDetailBody): LinkForm {
  const { details } = body;
  return {
    ...EMPTY_FORM,
    url: details.longurl,
    custom: details.custom,
    domain: details.domain ?? '',
    type: details.type,
    hasPassword: details.password,
    title: details.title,
    description: details.description,
    expiry: expiryToInput(details.expiry),
    geotarget: toRows(details.geotarget, 'location', 'link'),
    devicetarget: toRows(details.devicetarget, 'device', 'link'),
    languagetarget: toRows(details.languagetarget, 'language', 'link'),
    parameters: toRows(details.parameters, 'name', 'value'),
    metatitle: details.metatitle,
    metadescription: details.metadescription,
    metaimage: details.metaimage,
    pixels: details.pixels,
    campaign: details.campaign ? String(details.campaign) : '',
    channel: details.channel ? String(details.channel) : '',
    tags: details.tags,
    healthcheck: details.healthcheck,
    fallbackurl: details.fallbackurl,
    ...routingOfLink(details),
  };
}

const rows = <K extends string>(list: Row[], key: K, value: 'link' | 'value') =>
  list
    .filter((r) => r.key.trim() || r.value.trim())
    .map((r) => ({ [key]: r.key.trim(), [value]: r.value.trim() }) as Record<K | typeof value, string>);

/**
 * The request body. A new link sends what was filled in; an edit sends the URL and only the fields the
 * person changed, since the API keeps every field left out.
 */
export function linkBody(form: LinkForm, changed: ReadonlySet<FieldName> | null): LinkInput {
  const send = (name: FieldName) => (changed ? changed.has(name) : true);
  const body: LinkInput = { url: form.url.trim() };
  const text = (name: 'custom' | 'title' | 'description' | 'metatitle' | 'metadescription' | 'metaimage') => {
    if (send(name) && (changed || form[name].trim())) body[name] = form[name].trim();
  };
  (['custom', 'title', 'description', 'metatitle', 'metadescription', 'metaimage'] as const).forEach(text);
  if (send('domain') && (changed || form.domain)) body.domain = form.domain || false;
  if (send('type') && (changed || form.type !== 'direct')) body.type = form.type;
  if (form.removePassword) body.password = '';
  else if (form.password) body.password = form.password;
  if (send('expiry') && (changed || form.expiry)) body.expiry = inputToExpiry(form.expiry);
  if (send('geotarget')) body.geotarget = rows(form.geotarget, 'location', 'link');
  if (send('devicetarget')) body.devicetarget = rows(form.devicetarget, 'device', 'link');
  if (send('languagetarget')) body.languagetarget = rows(form.languagetarget, 'language', 'link');
  if (send('parameters')) body.parameters = rows(form.parameters, 'name', 'value');
  if (send('pixels') && (changed || form.pixels.length)) body.pixels = form.pixels;
  if (send('campaign') && (changed || form.campaign)) body.campaign = form.campaign ? Number(form.campaign) : null;
  if (send('channel') && form.channel) body.channel = Number(form.channel);
  if (send('tags') && (changed || form.tags.length)) body.tags = form.tags;
  if (send('healthcheck') && (changed || !form.healthcheck)) body.healthcheck = form.healthcheck;
  if (send('fallbackurl') && (changed || form.fallbackurl.trim())) body.fallbackurl = form.fallbackurl.trim();
  return { ...body, ...routingBody(form, send, changed !== null) };
}

/** The form as it is sent: addresses given their scheme, and rows left wholly empty dropped (so row numbers match the API's). */
export function tidy(form: LinkForm): LinkForm {
  const rowsOf = (list: Row[], urls: boolean) =>
    list.filter((r) => r.key.trim() || r.value.trim()).map((r) => (urls ? { ...r, value: withScheme(r.value) } : r));
  return {
    ...form,
    ...tidyRouting(form),
    url: withScheme(form.url),
    metaimage: withScheme(form.metaimage),
    fallbackurl: withScheme(form.fallbackurl),
    geotarget: rowsOf(form.geotarget, true),
    devicetarget: rowsOf(form.devicetarget, true),
    languagetarget: rowsOf(form.languagetarget, true),
    parameters: rowsOf(form.parameters, false),
  };
}

export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** Parameters with the UTM values set (replacing those names), empty UTM values left out. */
export function withUtm(parameters: Row[], utm: Record<string, string>): Row[] {
  const kept = parameters.filter((p) => !(p.key in utm));
  const added = Object.entries(utm)
    .filter(([, v]) => v.trim())
    .map(([key, value]) => ({ key, value: value.trim() }));
  return [...kept, ...added];
}
