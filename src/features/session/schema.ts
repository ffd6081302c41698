import { Type } from 'typebox';

const Email = Type.String({ maxLength: 254, description: "The account's e-mail address" });
const Password = Type.String({ maxLength: 1024, description: 'At least 8 characters' });

export const CredentialsBody = Type.Object({ email: Email, password: Password });
export const SetupBody = Type.Object({
  token: Type.String({ maxLength: 256, description: 'The token of the setup URL the server logged' }),
  email: Email,
  password: Password,
});

const SessionData = Type.Object({
  email: Type.String(),
  csrf: Type.String({ description: 'Send it back as the X-CSRF-Token header on every session request that is not GET or HEAD' }),
  expiresAt: Type.String({ description: 'ISO 8601: the session ends then at the latest (SESSION_MAX_DAYS after sign-in)' }),
  idleExpiresAt: Type.String({ description: 'ISO 8601: the session ends then unless a request comes first (SESSION_IDLE_MINUTES)' }),
});

export const SessionResponse = Type.Object({ error: Type.Literal(0), data: SessionData });

export const SessionStateResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    signedIn: Type.Boolean({ description: 'A live session cookie came with the request' }),
    session: Type.Optional(SessionData), // as GET /api/session answers; only when signed in
  }),
});

export const SetupStatusResponse = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    needed: Type.Boolean({ description: 'No account exists yet: the setup page (with the logged token) creates the first' }),
    registration: Type.Union([Type.Literal('open'), Type.Literal('closed')], {
      description: 'REGISTRATION: whether POST /api/session/register is open',
    }),
  }),
});

export const RevokedResponse = Type.Object({
  error: Type.Literal(0),
  message: Type.String(),
  data: Type.Object({ revoked: Type.Integer({ description: 'Sessions ended, this one included' }) }),
});
