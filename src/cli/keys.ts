import type { AppContext } from '../context.js';
import { CLI_ACTOR } from '../http/actor.js';
import { userIdByEmail } from '../features/account/service.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../features/account/keys/service.js';
import { fail } from '../lib/errors.js';

export interface KeyArgs {
  email?: string;
  name?: string;
  scopes?: string;
  expires?: string;
}

/** The account named by `--email` or the first word after the command. */
async function accountOf(ctx: AppContext, args: KeyArgs, rest: string[]): Promise<number> {
  const email = args.email ?? rest[0];
  if (!email) throw fail('invalid_field', 'Name the account: key … EMAIL (or --email E).');
  return userIdByEmail(ctx, email);
}

/** `key add EMAIL --name N --scopes a,b [--expires TS]`: prints {"id","key"}; the key is shown this once. */
export async function addKeyCommand(ctx: AppContext, args: KeyArgs, rest: string[]) {
  const userId = await accountOf(ctx, args, rest);
  if (!args.name) throw fail('invalid_field', '--name is required.');
  const scopes = (args.scopes ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return createApiKey(ctx, userId, { name: args.name, scopes, expires: args.expires ?? null }, undefined, CLI_ACTOR);
}

/** `key list EMAIL`: the account's keys as GET /api/keys lists them, without secrets. */
export async function listKeysCommand(ctx: AppContext, args: KeyArgs, rest: string[]) {
  return listApiKeys(ctx, await accountOf(ctx, args, rest));
}

/** `key revoke EMAIL ID`: the key stops working at once. */
export async function revokeKeyCommand(ctx: AppContext, args: KeyArgs, rest: string[]) {
  const userId = await accountOf(ctx, args, rest);
  const raw = args.email ? rest[0] : rest[1];
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || id < 1) throw fail('invalid_field', 'Name the key by its id: key revoke EMAIL ID (see key list).');
  await revokeApiKey(ctx, userId, id, CLI_ACTOR);
  return { revoked: id };
}
