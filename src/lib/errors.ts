/**
 * The error catalogue: every failure the service answers, under a stable machine code (clients may
 * switch on it; it never changes once released), with its HTTP status and its message. Services throw
 * `fail(code, …)`; the HTTP layer answers `{"error":1,"message":…,"code":…}` with the status.
 */
type Message = string | ((...args: never[]) => string);

interface Entry {
  status: number;
  message: Message;
  /** What the code means, for the OpenAPI document and the README. */
  about: string;
}

const catalogue = <T extends Record<string, Entry>>(entries: T): T => entries;
const text = (detail: string) => detail;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const ERRORS = catalogue({
  // The request as a whole.
  invalid_field: { status: 400, message: text, about: 'A field, query or path parameter is missing or not valid; the message names it.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.', about: 'The body is not JSON.' },
  invalid_request: { status: 400, message: text, about: 'The request is not valid HTTP, or its path cannot be read.' },
  key_required: {
    status: 401,
    message: 'A valid API key is required to use this service.',
    about: 'No API key, or an unknown, revoked or expired one.',
  },
  scope_missing: {
    status: 403,
    message: (scope: string) => `This API key lacks the scope ${scope}. Make a key that holds it (POST /api/key/add) or use a full key.`,
    about: 'The API key does not hold the scope the request needs (named in the message), or would grant a scope it lacks.',
  },
  endpoint_not_found: {
    status: 404,
    message: 'There is no such API endpoint. See /docs for the reference.',
    about: 'No endpoint at that method and path.',
  },
  request_timeout: { status: 408, message: 'The request took too long to arrive.', about: 'The request arrived too slowly.' },
  body_too_large: {
    status: 413,
    message: (limit: string) => `The request body is larger than ${limit}.`,
    about: 'The body is over the limit (1 MB on the API; a CSV import has its own, see import_too_large).',
  },
  path_too_long: { status: 414, message: 'The request path is too long.', about: 'The path is too long.' },
  unsupported_media_type: { status: 415, message: text, about: 'The body is not of a type this endpoint reads.' },
  rate_limited: {
    status: 429,
    message: (seconds: number) => `Too many requests. Try again in ${seconds} seconds.`,
    about: 'Over the rate limit; see Retry-After.',
  },
  headers_too_large: { status: 431, message: 'The request headers are larger than 16 KB.', about: 'The headers are over 16 KB.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Please try again.', about: 'A fault of the server; it is logged.' },

  // Resources: an id of another account is not found either.
  not_found: {
    status: 404,
    message: (what: string) => `${what} not found.`,
    about: 'No such link, domain, campaign, channel, item, pixel, QR code, page, user or webhook in your account.',
  },

  // Accounts.
  email_invalid: { status: 400, message: 'Please enter a valid e-mail address.', about: 'Not an e-mail address.' },
  email_taken: { status: 409, message: 'An account with that e-mail already exists.', about: 'Another account has that e-mail, in any case.' },
  username_invalid: { status: 400, message: 'Usernames are 3 to 32 letters, digits, dots, dashes or underscores.', about: 'Not a valid username.' },
  username_taken: { status: 409, message: 'That username is taken.', about: 'Another account has that username.' },
  account_taken: { status: 409, message: 'That e-mail or username is already registered.', about: 'Another account has that e-mail or username.' },
  password_short: {
    status: 400,
    message: (min: number) => `Passwords must be at least ${min} characters.`,
    about: 'An account password is too short.',
  },
  // Dashboard sign-in and sessions.
  session_invalid: {
    status: 401,
    message: 'Your session has ended. Please sign in again.',
    about: 'The session cookie names no live session (signed out, revoked or expired).',
  },
  session_ambiguous: {
    status: 401,
    message: 'The request carried more than one session cookie; they are cleared. Please sign in again.',
    about: 'More than one session cookie came (another host of the domain may have planted one); the answer expires them all.',
  },
  signin_failed: {
    status: 401,
    message: 'That e-mail and password do not match an account.',
    about: 'Wrong e-mail or password (one answer for both).',
  },
  csrf_invalid: {
    status: 403,
    message: 'This request needs the X-CSRF-Token header of your session (see GET /api/session).',
    about: "A request with the session cookie that changes something came without the session's X-CSRF-Token, or from another origin.",
  },
  registration_closed: {
    status: 403,
    message: 'Sign-up is closed on this installation. Ask its administrator for an account.',
    about: 'POST /api/session/register without REGISTRATION=open.',
  },
  setup_token_invalid: {
    status: 403,
    message: 'This setup link is not valid. Use the one in the server log.',
    about: 'The first-account setup token is wrong.',
  },
  setup_done: {
    status: 409,
    message: 'This installation already has an account: sign in instead.',
    about: 'First-account setup after an account was made (even if since deleted).',
  },
  signin_throttled: {
    status: 429,
    message: (seconds: number) => `Too many failed sign-ins. Try again in ${Math.max(Math.ceil(seconds / 60), 1)} minutes.`,
    about:
      'Too many failed sign-ins from the client, for the account from the client, or for the account from all clients (the hourly ceiling), ' +
      'or too many wrong current passwords for the account (PUT /api/account/update); see Retry-After.',
  },
  scope_invalid: {
    status: 400,
    message: (value: string) =>
      `${value ? `Unknown scope "${value}"` : 'Name at least one scope'}: use * or <area>:read / <area>:write for ` +
      'account, links, qr, domains, campaigns, channels, pixels, pages or stats.',
    about: 'An API key names a scope that does not exist, or none.',
  },
  full_key_required: {
    status: 403,
    message: 'Changing the password or e-mail by API key needs a full (*) key that does not expire.',
    about: 'PUT /api/account/update changing the password or e-mail with a key that is scoped or expires.',
  },
  current_password_wrong: {
    status: 403,
    message: 'Send your current password (currentpassword) to change your password or e-mail.',
    about: 'PUT /api/account/update from the dashboard changing the password or e-mail without the right currentpassword.',
  },
  key_limit: {
    status: 409,
    message: (max: number) => `Your account has ${max} API keys, the most it may hold. Revoke one (DELETE /api/key/{id}/delete) first.`,
    about: 'The account holds MAX_KEYS_PER_ACCOUNT live (unexpired) API keys already.',
  },
  key_name_taken: { status: 409, message: 'You already have an API key with that name.', about: 'Your account has an API key of that name already.' },
  nothing_to_update: { status: 400, message: (fields: string) => `Send ${fields} to update.`, about: 'An update named nothing to change.' },

  // Links.
  alias_invalid: {
    status: 400,
    message: (field: string) => `${field} must be 3 to 64 letters, digits, dashes (-) or underscores (_).`,
    about: 'Not a valid alias.',
  },
  alias_reserved: {
    status: 400,
    message: (alias: string) => `"${alias}" is reserved by the service and cannot be used as an alias. Please choose another one.`,
    about: "The alias is one of the service's own paths.",
  },
  alias_taken: {
    status: 409,
    message: 'That alias is taken. Please choose another one.',
    about: 'The alias is in use on that domain (by a link or bio page of any account).',
  },
  aliases_exhausted: {
    status: 503,
    message: 'Could not find a free random alias; please try again or send a custom alias.',
    about: 'No free random alias was found.',
  },
  link_type_invalid: {
    status: 400,
    message: (value: string, onUpdate: boolean) =>
      onUpdate
        ? `Unknown type "${value}": on update use direct, frame, splash or the id of one of your splash pages.`
        : `Unknown type "${value}": use direct, frame, splash, the id of one of your splash pages or overlay-{id} for one of your overlays.`,
    about: 'Not a redirection type this call takes.',
  },
  expiry_invalid: {
    status: 400,
    message: 'expiry must be a timestamp written YYYY-MM-DD HH:MM:SS (UTC), or null / "" for none.',
    about: 'Not a timestamp.',
  },
  rule_invalid: {
    status: 400,
    message: (where: string, what: string) => `${where}: ${what}`,
    about:
      'A routing rule, split, maxvisits or expiredurl is not valid; the message names the rule and condition (from 0), e.g. `rules[1].conditions[0]`.',
  },
  unknown_reference: {
    status: 400,
    message: (field: string, what: string, id: number, list: string) =>
      `${field}: there is no ${what} with id ${id} in your account (see GET /api/${list}).`,
    about: 'The request names a pixel, campaign, channel, splash page or overlay that is not yours.',
  },
  domain_unknown: {
    status: 400,
    message: (value: string) =>
      `Unknown domain "${value}": use one of your branded domains from GET /api/domains, or leave it out for the default domain.`,
    about: 'A link names a branded domain that is not yours.',
  },

  // Branded domains.
  domain_invalid: {
    status: 400,
    message: 'domain must be an http:// or https:// address with a host name only, e.g. https://go.example.com.',
    about: 'Not an http(s) address with a host name only.',
  },
  domain_own_host: {
    status: 400,
    message: (host: string) => `${host} is this service's own address; it is always available as the default domain.`,
    about: "The service's own host, in any spelling.",
  },
  domain_reserved: {
    status: 400,
    message: (host: string, own: string) =>
      `${host} shares cookies with this service's own host ${own} (the same name, a parent or a subdomain of it): a page there could plant a dashboard session. Use a domain of its own.`,
    about: "The host equals (on another port), contains or lies under the dashboard's host or BASE_URL's host.",
  },
  domain_cross_port: {
    status: 400,
    message: (scheme: string, host: string, port: string) =>
      `${scheme}//${host} cannot use port ${port}: it is the standard port of the other scheme; leave the port out.`,
    about: 'http with port 443 or https with port 80.',
  },
  domain_not_pointing: {
    status: 400,
    message: (host: string, targets: string) =>
      `${host} does not point to this service yet: add an A/AAAA record for, or a CNAME to, ${targets} and try again once DNS has updated.`,
    about: "The domain's DNS does not point to this service (DOMAIN_DNS_TARGETS).",
  },
  domain_taken: { status: 409, message: 'That domain is already registered.', about: 'Your account has that host already, in any spelling.' },
  domain_taken_elsewhere: {
    status: 409,
    message: (host: string) => `${host} is already registered by another account: a host belongs to one account only, however it is spelled.`,
    about: 'Another account has that host, in any spelling.',
  },
  domain_port_taken_elsewhere: {
    status: 409,
    message: (host: string, other: string) =>
      `${host} shares its host name with ${other}, which another account has registered: ports separate neither cookies nor sites, so a host name belongs to one account on every port.`,
    about: 'Another account has the same host name on another port (or without one).',
  },
  domain_has_links: {
    status: 409,
    message: (n: number) => `This domain still has ${plural(n, 'short link', 'short links')}; delete them or move them to another domain first.`,
    about: 'A domain with links cannot be deleted.',
  },

  // Campaigns, channels, pixels and pages.
  name_required: { status: 400, message: (what: string) => `${what} is required.`, about: 'A name is blank.' },
  campaign_name_taken: {
    status: 409,
    message: 'You already have a campaign with that name.',
    about: 'Your account has a campaign of that name already.',
  },
  channel_name_taken: {
    status: 409,
    message: 'You already have a channel with this name.',
    about: 'Your account has a channel of that name already.',
  },
  slug_invalid: { status: 400, message: 'The slug must be 3 to 64 letters, digits, dashes or underscores.', about: 'Not a valid rotator slug.' },
  slug_taken: { status: 409, message: 'That slug is taken. Please choose another one.', about: 'Another campaign has that slug.' },
  color_invalid: { status: 400, message: 'The color must be a HEX color like #1A2B3C.', about: 'Not a HEX color.' },
  item_type_invalid: { status: 400, message: 'The item type must be one of links, bio or qr.', about: 'Not a channel item type.' },
  pixel_type_invalid: {
    status: 400,
    message: (value: string, types: string) => `Unknown pixel type "${value}". Use one of: ${types}.`,
    about: 'Not a pixel type.',
  },
  pixel_tag_invalid: {
    status: 400,
    message: "tag must be the provider's tag or id: 1 to 128 letters, digits, _ . : or -, e.g. G-ABC123 or GTM-XYZ.",
    about: 'Not a pixel tag.',
  },
  webhook_url_invalid: {
    status: 400,
    message: 'url must be an http(s) URL of a public address, such as https://example.com/hooks.',
    about: 'Not an http(s) URL, or a private, loopback, link-local or metadata address.',
  },
  webhook_events_invalid: {
    status: 400,
    message: (events: string) => `events must name one or more of: ${events}.`,
    about: 'No events, or an unknown one.',
  },
  overlay_type_invalid: { status: 400, message: 'The overlay type must be message or contact.', about: 'Not an overlay type.' },
  overlay_email_invalid: {
    status: 400,
    message: 'email must be an e-mail address such as team@example.com (or "" for none).',
    about: 'Not an e-mail address.',
  },

  // Changes to every link a filter matches.
  bulk_too_large: {
    status: 400,
    message: (matched: number, max: number) =>
      `The filter matches ${matched.toLocaleString('en')} ${matched === 1 ? 'link' : 'links'}; one request changes at most ${max.toLocaleString('en')}. Narrow the filter and send it again.`,
    about: 'A change by filter (POST /api/urls/bulk/apply) matches more links than one request may touch (10000); nothing was changed.',
  },
  bulk_busy: {
    status: 429,
    message: 'Another bulk change of this account is still running. Send this one again when it has answered.',
    about: 'A bulk call (POST /api/urls/bulk or /api/urls/bulk/apply) while another of the same account runs; nothing was changed; see Retry-After.',
  },

  // Click series.
  series_range_invalid: {
    status: 400,
    message: (from: string, to: string) => `from (${from}) is after to (${to}).`,
    about: 'A series range ends before it starts.',
  },
  series_range_too_large: {
    status: 400,
    message: (limit: string) => `The range is too large: ${limit}. Ask for a shorter range or a longer interval.`,
    about: 'A series range holds more buckets than allowed (hourly: 31 days; other intervals: 3660 buckets).',
  },
  visits_page_too_deep: {
    status: 400,
    message: (limit: string) => `Pages of the visit log go ${limit} visits deep; read further with before= (the cursor each page answers).`,
    about: 'A page of a visit log starts past its 10000th visit: walk on with the before= cursor each page answers.',
  },

  // CSV imports of links.
  csv_invalid: { status: 400, message: text, about: 'The body is not CSV that can be read (empty, or unbalanced quotes); the message says where.' },
  import_format_unknown: {
    status: 400,
    message: (known: string) => `The CSV header is not one Redirectory can import. Recognised formats and the columns each needs: ${known}.`,
    about: 'The header row names no export format Redirectory reads (its own, Shlink, Bitly, YOURLS or Kutt).',
  },
  import_password_missing: {
    status: 400,
    message:
      'This link was password-protected where it was exported, and passwords are never exported: put its password in the password column to import it.',
    about: 'An imported row was password-protected and has no password (a failed row of an import job).',
  },
  import_too_large: {
    status: 413,
    message: (limit: string) =>
      `The CSV file is larger than ${limit}, the most this installation imports at once (IMPORT_MAX_BYTES): split it into smaller files.`,
    about: 'The CSV file of an import is over IMPORT_MAX_BYTES (20 MB unless configured); nothing was read or imported.',
  },
  import_running: {
    status: 409,
    message: (id: number) => `Your import ${id} is still running; start the next one when it has finished (GET /api/urls/import/${id}).`,
    about: 'The account has an import running already.',
  },

  // QR codes.
  qr_data_too_long: {
    status: 400,
    message: 'The data is too long to fit in a QR code: keep it under about 1,200 bytes.',
    about: 'The content does not fit in a QR code.',
  },
  qr_color_invalid: {
    status: 400,
    message: (field: string) => `The field "${field}" must be a color written rgb(R,G,B) with each value from 0 to 255.`,
    about: 'Not an rgb(R,G,B) color.',
  },
  qr_colors_too_alike: {
    status: 400,
    message: 'The foreground and background colors are too alike for the code to be scanned.',
    about: 'Too little contrast to scan.',
  },
  qr_logo_invalid: { status: 400, message: text, about: 'The logo is not a whole PNG or JPEG image within the size limits, or an http(s) URL.' },
});

export type ErrorCode = keyof typeof ERRORS;
/** Every code, in catalogue order. */
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

type ArgsOf<C extends ErrorCode> = (typeof ERRORS)[C]['message'] extends (...args: infer A) => string ? A : [];

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly status: number,
    message: string,
    /** Seconds the client should wait, sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** `fail` with a Retry-After: the first argument of the message is the seconds to wait. */
export function failLater(code: 'signin_throttled' | 'rate_limited', seconds: number): AppError {
  const error = fail(code as 'rate_limited', seconds);
  return new AppError(error.code, error.status, error.message, seconds);
}

/** The catalogue's error for `code`, its message filled in; services `throw` it. */
export function fail<C extends ErrorCode>(code: C, ...args: ArgsOf<C>): AppError {
  const { status, message } = ERRORS[code] as Entry;
  return new AppError(code, status, typeof message === 'string' ? message : (message as (...a: unknown[]) => string)(...args));
}
