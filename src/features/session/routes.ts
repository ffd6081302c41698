import type { TSchema } from 'typebox';
import { errorResponses, ok, OkMessage, ErrorBody } from '../../http/envelopes.js';
import type { RateLimitStore } from '../../http/rate-limit.js';
import { actorOf } from '../../http/actor.js';
import { recordActivity } from '../account/activity/service.js';
import { accountOf, type GateConfig, type Feature } from '../../http/types.js';
import { clearedSessionCookie, sessionCookie } from './cookie.js';
import { CredentialsBody, RevokedResponse, SessionResponse, SessionStateResponse, SetupBody, SetupStatusResponse } from './schema.js';
import { describeSession, endAllSessions, endSession, secureDashboard, sessionTokenOf, type NewSession } from './service.js';
import { AMBIGUOUS_SESSION } from '../../http/auth.js';
import { fail } from '../../lib/errors.js';
import { completeSetup, register, setupStatus, signIn } from './sign-in.js';

const tags = ['session'];
const open: GateConfig = { auth: 'none', dashboard: true };
const signedIn: GateConfig = { auth: 'session', dashboard: true };
const answers = { ...errorResponses, 403: ErrorBody };

/** The dashboard's sign-in: cookie sessions on the dashboard's host (README "Dashboard sign-in and sessions"). */
export const sessionRoutes: Feature<{ store: RateLimitStore }> = async (app, { ctx, store }) => {
  const secure = secureDashboard(ctx);
  const started = (session: NewSession) => ({ error: 0 as const, data: session.view });
  const cookieOf = (session: NewSession) => sessionCookie(session.token, session.maxAgeS, secure);
  const signInSchema = <B extends TSchema>(summary: string, body: B) => ({
    tags,
    summary,
    body,
    security: [],
    response: { 200: SessionResponse, ...answers },
  });

  app.get(
    '/session',
    { config: signedIn, schema: { tags, summary: 'The signed-in session (cookie)', response: { 200: SessionResponse, ...answers } } },
    async (req) => ({ error: 0 as const, data: await describeSession(ctx, accountOf(req).session!.id) }),
  );
  // The dashboard's probe: signed out is an answer, not a 401 that browsers log as a failed request.
  app.get(
    '/session/state',
    {
      config: open,
      schema: { tags, summary: 'Whether a session is signed in, never 401', security: [], response: { 200: SessionStateResponse, ...answers } },
    },
    async (req) => {
      // Two session cookies (one planted by a tag on the short domain) answer as every signed-in route does.
      if (sessionTokenOf(secure, req.headers.cookie) === AMBIGUOUS_SESSION) throw fail('session_ambiguous');
      const session = req.account?.session;
      if (!session) return { error: 0 as const, data: { signedIn: false } };
      return { error: 0 as const, data: { signedIn: true, session: await describeSession(ctx, session.id) } };
    },
  );
  app.post('/session', { config: open, schema: signInSchema('Sign in: sets the session cookie', CredentialsBody) }, async (req, reply) => {
    const session = await signIn(ctx, store, req.body, req.ip, actorOf(req));
    return reply.header('set-cookie', cookieOf(session)).send(started(session));
  });
  app.delete(
    '/session',
    { config: signedIn, schema: { tags, summary: 'Sign out this session', response: { 200: OkMessage, ...answers } } },
    async (req, reply) => {
      await endSession(ctx, accountOf(req).session!.id);
      await recordActivity(ctx, accountOf(req).userId, 'signout', actorOf(req));
      return reply.header('set-cookie', clearedSessionCookie(secure)).send(ok('You are signed out.'));
    },
  );
  app.delete(
    '/sessions',
    { config: signedIn, schema: { tags, summary: 'Sign out everywhere', response: { 200: RevokedResponse, ...answers } } },
    async (req, reply) => {
      const data = await endAllSessions(ctx, accountOf(req).userId);
      await recordActivity(ctx, accountOf(req).userId, 'signout_all', actorOf(req));
      return reply.header('set-cookie', clearedSessionCookie(secure)).send({ ...ok('Every session of your account is signed out.'), data });
    },
  );
  app.post(
    '/session/register',
    { config: open, schema: signInSchema('Create an account and sign in (REGISTRATION=open)', CredentialsBody) },
    async (req, reply) => {
      const session = await register(ctx, req.body);
      return reply.header('set-cookie', cookieOf(session)).send(started(session));
    },
  );
  app.get(
    '/session/setup',
    {
      config: open,
      schema: { tags, summary: 'Whether the first account is still to be made', security: [], response: { 200: SetupStatusResponse, ...answers } },
    },
    async () => ({ error: 0 as const, data: await setupStatus(ctx) }),
  );
  app.post(
    '/session/setup',
    { config: open, schema: signInSchema('Create the first account with the logged setup token, and sign in', SetupBody) },
    async (req, reply) => {
      const session = await completeSetup(ctx, req.body);
      return reply.header('set-cookie', cookieOf(session)).send(started(session));
    },
  );
};
