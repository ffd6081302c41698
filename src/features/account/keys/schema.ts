import { Type } from 'typebox';
import { SCOPES } from '../../../lib/scopes.js';

const Timestamp = (description: string) => Type.String({ description: `${description}: \`YYYY-MM-DD HH:MM:SS\` (UTC), or "" for none` });

export const ApiKeySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scopes: Type.Array(Type.String(), { description: `Scopes the key holds: ${SCOPES.join(', ')}` }),
  created: Type.String({ description: '`YYYY-MM-DD HH:MM:SS` (UTC)' }),
  lastUsed: Timestamp('Last request made with the key, exact to a minute'),
  expires: Timestamp('When the key stops working'),
});

export const ApiKeyList = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ result: Type.Integer(), keys: Type.Array(ApiKeySchema) }),
});

export const ApiKeyBody = Type.Object({
  name: Type.String({ description: '1 to 64 characters, unique in the account' }),
  scopes: Type.Array(Type.String(), { maxItems: SCOPES.length, description: `One or more of: ${SCOPES.join(', ')}` }),
  expires: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description: '`YYYY-MM-DD HH:MM:SS` (UTC) in the future; "" or null (or absent) for a key that never expires',
    }),
  ),
});

export const ApiKeyCreated = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  key: Type.String({ description: 'The secret, shown this once: send it as `Authorization: Bearer <key>`' }),
});
