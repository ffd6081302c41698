import { actorOf } from '../../http/actor.js';
import { errorResponses, ok, OkMessage } from '../../http/envelopes.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import { accountOf, type GateConfig, type Feature } from '../../http/types.js';
import { AccountResponse, AccountUpdateBody, ApiKeyResponse } from './schema.js';
import { getAccount, updateAccount, type EndSessions } from './service.js';
import { recordAccountUpdate } from './activity/service.js';
import { replaceDefaultKey } from './keys/service.js';

export const accountRoutes: Feature<{ endSessions: EndSessions; store: RateLimitStore }> = async (app, { ctx, endSessions, store }) => {
  const read = { tags: ['account'], response: { 200: AccountResponse, ...errorResponses } };
  app.get('/account', { schema: { ...read, summary: 'The account that owns the API key' } }, async (req) => ({
    error: 0 as const,
    data: await getAccount(ctx, accountOf(req).userId),
  }));
  // The spec's authentication demo POSTs here; it answers like GET (so it needs only account:read).
  app.post(
    '/account',
    { config: { scope: 'account:read' } satisfies GateConfig, schema: { ...read, summary: 'Same as GET /api/account' } },
    async (req) => ({
      error: 0 as const,
      data: await getAccount(ctx, accountOf(req).userId),
    }),
  );
  app.put(
    '/account/update',
    {
      schema: {
        tags: ['account'],
        summary: 'Change e-mail and/or password',
        body: AccountUpdateBody,
        response: { 200: OkMessage, ...errorResponses },
        description:
          'A change signs the account out of every dashboard session but the one that made it (all of them when an API key made it). ' +
          'A new e-mail or password needs proof of the account: by API key a full (`*`) key that does not expire (403 `full_key_required`), ' +
          'from a dashboard session `currentpassword` (403 `current_password_wrong`; after 10 wrong ones in 15 minutes 429 `signin_throttled`). Sending the e-mail the account has changes nothing and needs neither.',
      },
    },
    async (req) => {
      const changed = await updateAccount(ctx, accountOf(req), req.body, endSessions, store);
      await recordAccountUpdate(ctx, accountOf(req).userId, changed, actorOf(req));
      return ok('Account has been successfully updated.');
    },
  );
  // Session only: it replaces the full key "default", which no key may mint (POST /api/key/add covers keys).
  app.post(
    '/account/key',
    {
      config: { auth: 'session' } satisfies GateConfig,
      schema: {
        tags: ['account'],
        summary: 'Make a new API key',
        description:
          'Extension, dashboard session only (an API key answers 401): replaces the account\'s full key named "default" with a new ' +
          "one, shown only here; the old one stops working at once, the account's other keys stay. Takes no body.",
        response: { 200: ApiKeyResponse, ...errorResponses },
      },
    },
    async (req) => ({ error: 0 as const, data: { apiKey: await replaceDefaultKey(ctx, accountOf(req).userId, actorOf(req)) } }),
  );
};
