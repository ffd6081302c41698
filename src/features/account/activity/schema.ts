import { Type } from 'typebox';

/** What the account activity log records. `signin_throttled`: the account-wide sign-in ceiling was reached. */
export const ACTIVITY_EVENTS = [
  'signin',
  'signin_failed',
  'signin_throttled',
  'signout',
  'signout_all',
  'password_changed',
  'email_changed',
  'key_created',
  'key_revoked',
  'import',
  'export',
  'webhook_added',
  'webhook_updated',
  'webhook_deleted',
] as const;
export type ActivityEvent = (typeof ACTIVITY_EVENTS)[number];

export const ACTIVITY_PAGE = { default: 20, max: 100 };

export const ActivityQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ description: `Entries per page, default ${ACTIVITY_PAGE.default}, capped at ${ACTIVITY_PAGE.max}` })),
  page: Type.Optional(Type.Integer({ description: 'Page number, from 1' })),
});

export const ActivityEntrySchema = Type.Object({
  date: Type.String({ description: '`YYYY-MM-DD HH:MM:SS` (UTC)' }),
  event: Type.String({ description: `One of: ${ACTIVITY_EVENTS.join(', ')}` }),
  via: Type.String({ description: "The API key's name, `session` or `cli`" }),
  ip: Type.String({ description: 'The network: `203.0.113.0/24` or `2001:db8:1234::/48`; "" when unknown (the CLI)' }),
  agent: Type.String({ description: 'e.g. `Chrome on macOS` or `curl`; "" when unknown' }),
});

export const ActivityResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ result: Type.Integer(), activity: Type.Array(ActivityEntrySchema) }),
});
