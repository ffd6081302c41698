import { ApiError, errorText } from '../../lib/api.js';
import { countryOfKey } from './countries.js';
import { checkRouting, routingErrorText, routingFieldOf } from './routing-checks.js';
import type { FieldName, LinkForm, Row } from './form.js';

/** Messages by the id of the input they belong to (`url`, `custom`, `geo-0-value`, …). */
export type FieldErrors = Record<string, string>;

const ALIAS = /^[A-Za-z0-9_-]{3,64}$/;
const LANGUAGE = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;

/** An absolute http(s) address with a host, as the API takes for every destination. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const WEB_ADDRESS = 'Enter a web address such as https://example.com/page.';

/** The row lists, by form field: the ids their inputs carry, and how a key is judged. */
const LISTS = [
  { field: 'geotarget', prefix: 'geo', key: (k: string) => (countryOfKey(k) ? '' : 'Choose a country from the list.') },
  { field: 'devicetarget', prefix: 'device', key: (k: string) => (k.trim() ? '' : 'Name the device.') },
  {
    field: 'languagetarget',
    prefix: 'language',
    key: (k: string) => (LANGUAGE.test(k.trim().replace(/_/g, '-')) ? '' : 'Enter a language code such as en or pt-br.'),
  },
] as const;

function rowErrors(rows: Row[], prefix: string, key: (k: string) => string, errors: FieldErrors) {
  rows.forEach((row, i) => {
    const keyError = key(row.key);
    if (keyError) errors[`${prefix}-${i}-key`] = keyError;
    if (!isWebAddress(row.value)) errors[`${prefix}-${i}-value`] = WEB_ADDRESS;
  });
}

/**
 * The mistakes the browser can see before asking the server, on a tidied form; on an edit only fields the
 * person changed are judged, so a link saved through the API with other values can still be saved unchanged.
 */
export function checkForm(form: LinkForm, changed: ReadonlySet<FieldName> | null): FieldErrors {
  const judged = (name: FieldName) => !changed || changed.has(name);
  const errors: FieldErrors = {};
  if (!form.url.trim()) errors.url = 'Enter the destination: the page the short link opens.';
  else if (!isWebAddress(form.url)) errors.url = WEB_ADDRESS;
  if (judged('custom') && form.custom.trim() && !ALIAS.test(form.custom.trim()))
    errors.custom = 'Aliases are 3 to 64 letters, digits, dashes (-) or underscores (_).';
  if (judged('metaimage') && form.metaimage.trim() && !isWebAddress(form.metaimage))
    errors.metaimage = 'Enter the https address of a jpg or png image.';
  if (judged('fallbackurl') && form.fallbackurl.trim() && !isWebAddress(form.fallbackurl)) errors.fallbackurl = WEB_ADDRESS;
  for (const list of LISTS) if (judged(list.field)) rowErrors(form[list.field], list.prefix, list.key, errors);
  if (judged('parameters'))
    form.parameters.forEach((row, i) => {
      if (!row.key.trim()) errors[`param-${i}-key`] = 'Name the parameter.';
    });
  return { ...errors, ...checkRouting(form, judged) };
}

// The API names the field in a code of its own, or first in the message ("url must…", "geotarget[0].link must…").
const BY_CODE: Record<string, string> = {
  alias_invalid: 'custom',
  alias_reserved: 'custom',
  alias_taken: 'custom',
  domain_unknown: 'domain',
  expiry_invalid: 'expiry',
  link_type_invalid: 'type',
};
const PLAIN = new Set([
  'url',
  'custom',
  'domain',
  'type',
  'password',
  'expiry',
  'title',
  'description',
  'metatitle',
  'metadescription',
  'metaimage',
  'campaign',
  'channel',
  'pixels',
  'maxvisits',
  'expiredurl',
]);
const ROW_PREFIX: Record<string, string> = { geotarget: 'geo', devicetarget: 'device', languagetarget: 'language', parameters: 'param' };

/** The id of the input a failed save is about, when the API's answer names one. */
export function fieldOfError(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (BY_CODE[error.code]) return BY_CODE[error.code]!;
  if (error.code === 'rule_invalid') return routingFieldOf(error.message);
  const named = /^(\w+)(?:\[(\d+)\]\.(\w+))?/.exec(error.message);
  if (!named) return null;
  const [, field, index, part] = named;
  if (PLAIN.has(field!)) return field!;
  const prefix = ROW_PREFIX[field!];
  if (!prefix || index === undefined) return null;
  return `${prefix}-${index}-${part === 'link' || part === 'value' ? 'value' : 'key'}`;
}

/** An error's message as shown beside its field: a routing error without the place it names. */
export const fieldErrorText = (error: unknown) =>
  error instanceof ApiError && error.code === 'rule_invalid' ? routingErrorText(error.message) : errorText(error);

/** Whether a datetime-local value lies before now. */
export const isPast = (expiry: string, now = Date.now()) => expiry !== '' && new Date(expiry).getTime() < now;
