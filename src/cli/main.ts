import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { destination, pino } from 'pino';
import { loadConfig } from '../config.js';
import { openContext } from '../context.js';
import { composeFeatures } from '../compose.js';
import { createUser, deleteUserByEmail, listUsers, rotateKey, setPassword } from '../features/account/service.js';
import { endAllSessions } from '../features/session/service.js';
import { fail } from '../lib/errors.js';
import { importCommand } from './import.js';
import { addKeyCommand, listKeysCommand, revokeKeyCommand } from './keys.js';
import { CLI_ACTOR } from '../http/actor.js';
import { recordActivity } from '../features/account/activity/service.js';

const USAGE = `Redirectory CLI
  user create --email E [--password P] [--username U]   prints {"id","email","username","apiKey"}
  user list                                             prints a JSON array of users
  user delete --email E
  user password --email E [--password P]                sets the dashboard password (read from stdin when
                                                        --password is absent) and signs the account out everywhere
  key rotate --email E                                  replaces the full key "default" (prints it once); the old one
                                                        stops working at once, other keys stay
  key add EMAIL --name N --scopes S1,S2 [--expires TS]  a scoped key (scopes: *, or account|links|qr|domains|campaigns|
                                                        channels|pixels|pages|stats :read/:write; TS is YYYY-MM-DD HH:MM:SS
                                                        UTC); prints {"id","key"}, the key shown only once
  key list EMAIL                                        prints the account's keys (never their secrets)
  key revoke EMAIL ID                                   the key stops working at once
  migrate                                               brings the database schema up to date
  import --email E FILE.csv                             imports links as POST /api/urls/import does; progress on stderr,
                                                        prints {"format","total","done","failed","errors"}
Honours DATABASE_URL like the server.`;

type Command = (args: Record<string, string | undefined>, rest: string[]) => Promise<unknown>;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      help: { type: 'boolean' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
    },
  });
  // `import` and `key add|list|revoke` take arguments after them; the other commands are all words.
  const takesArgs = positionals[0] === 'import' || (positionals[0] === 'key' && positionals[1] !== 'rotate');
  const name = takesArgs ? positionals.slice(0, positionals[0] === 'import' ? 1 : 2).join(' ') : positionals.join(' ');
  if (values.help || !name) return usage(values.help ? 0 : 2);
  const config = loadConfig();
  // The CLI's stdout is for its JSON answer only; logs go to stderr and only when something is wrong.
  composeFeatures();
  // No background work (roll-up, prunes): a command ends long before their first pass.
  const ctx = await openContext(config, pino({ level: 'warn' }, destination(2)));
  const need = (v: string | undefined, flag: string) => {
    if (!v) throw fail('invalid_field', `--${flag} is required.`);
    return v;
  };
  const commands: Record<string, Command> = {
    'user create': (a) => createUser(ctx, { email: need(a.email, 'email'), password: a.password, username: a.username }),
    'user list': () => listUsers(ctx),
    'user delete': (a) => deleteUserByEmail(ctx, need(a.email, 'email')),
    'user password': async (a) => {
      const user = await setPassword(ctx, need(a.email, 'email'), a.password ?? (await readPassword()));
      await recordActivity(ctx, user.id, 'password_changed', CLI_ACTOR);
      return { ...user, ...(await endAllSessions(ctx, user.id)) };
    },
    'key rotate': (a) => rotateKey(ctx, need(a.email, 'email')),
    'key add': (a, rest) => addKeyCommand(ctx, a, rest),
    'key list': (a, rest) => listKeysCommand(ctx, a, rest),
    'key revoke': (a, rest) => revokeKeyCommand(ctx, a, rest),
    migrate: async () => ({ migrated: true }),
    import: (a, rest) => importCommand(ctx, a.email, rest[0]),
  };
  try {
    const command = commands[name];
    if (!command) return usage(2);
    const { help: _help, ...args } = values;
    process.stdout.write(`${JSON.stringify(await command(args, positionals.slice(name.split(' ').length)))}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`redirectory: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await ctx.close();
  }
}

/**
 * The password from stdin, so it stays out of the shell history and the process list: typed at a prompt (not
 * echoed) on a terminal, else the first line of what is piped in.
 */
async function readPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: process.stdin.isTTY === true });
  if (process.stdin.isTTY) {
    process.stderr.write('New password: ');
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {}; // no echo
  }
  try {
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
    if (process.stdin.isTTY) process.stderr.write('\n');
  }
}

function usage(code: number): number {
  (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
  return code;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`redirectory: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
