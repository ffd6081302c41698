import { Type } from 'typebox';

export const AccountSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  username: Type.String(),
  avatar: Type.String({ description: 'URL' }),
  status: Type.String({ description: 'Plan name; self-hosted accounts are `pro`.' }),
  expires: Type.String({ description: 'Plan expiry timestamp; "" when the plan does not expire.' }),
  registered: Type.String({ description: 'Timestamp `YYYY-MM-DD HH:MM:SS` (UTC)' }),
});

export const AccountResponse = Type.Object({ error: Type.Literal(0), data: AccountSchema });

export const AccountUpdateBody = Type.Object({
  email: Type.Optional(Type.String()),
  password: Type.Optional(Type.String({ description: 'At least 8 characters' })),
  currentpassword: Type.Optional(
    Type.String({ description: "The account's password now: needed from a dashboard session to change the e-mail or password" }),
  ),
});

export const ApiKeyResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ apiKey: Type.String({ description: 'The new key, shown this once; the old key stops working at once.' }) }),
});
