import { actorOf } from '../../../http/actor.js';
import { errorResponses, IdParam, ok, OkMessage } from '../../../http/envelopes.js';
import { accountOf, type GateConfig, type Feature } from '../../../http/types.js';
import { SCOPES } from '../../../lib/scopes.js';
import { ApiKeyBody, ApiKeyCreated, ApiKeyList } from './schema.js';
import { createApiKey, listApiKeys, revokeApiKey } from './service.js';

const tags = ['account'];
// Managing keys needs account:write even to list them: the list tells what every key can do.
const manage = { scope: 'account:write' } satisfies GateConfig;
const SCOPE_RULES =
  `Extension. Scopes: ${SCOPES.map((s) => `\`${s}\``).join(', ')}. \`pages\` covers bio pages, splash pages and overlays; ` +
  'a write scope does not include its read scope. An API key needs `account:write` here; a dashboard session may always.';

export const apiKeyRoutes: Feature = async (app, { ctx }) => {
  app.get(
    '/keys',
    {
      config: manage,
      schema: {
        tags,
        summary: "The account's API keys",
        description: `${SCOPE_RULES} Oldest first; the secrets are never listed.`,
        response: { 200: ApiKeyList, ...errorResponses },
      },
    },
    async (req) => {
      const keys = await listApiKeys(ctx, accountOf(req).userId);
      return { error: 0 as const, data: { result: keys.length, keys } };
    },
  );

  app.post(
    '/key/add',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Make a scoped API key',
        body: ApiKeyBody,
        response: { 200: ApiKeyCreated, ...errorResponses },
        description:
          `${SCOPE_RULES} The secret is in this answer only. A key can only make keys with scopes it holds itself ` +
          '(403 `scope_missing` names the first it lacks; a `*` key may make any), and a key that expires only keys that expire no later. ' +
          'Names are unique in the account (409 `key_name_taken`); an unknown scope is a 400 `scope_invalid`.',
      },
    },
    async (req) => {
      const account = accountOf(req);
      return { error: 0 as const, ...(await createApiKey(ctx, account.userId, req.body, account.key, actorOf(req))) };
    },
  );

  app.delete(
    '/key/:id/delete',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: IdParam,
        response: { 200: OkMessage, ...errorResponses },
        description: "Extension. The key stops working at once, on every node. A key may revoke itself. Another account's key answers 404.",
      },
    },
    async (req) => {
      await revokeApiKey(ctx, accountOf(req).userId, req.params.id, actorOf(req));
      return ok('The API key has been revoked.');
    },
  );
};
