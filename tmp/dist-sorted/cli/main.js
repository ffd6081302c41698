import { parseArgs } from 'node:util';
import { destination, pino } from 'pino';
import { loadConfig } from '../config.js';
import { createContext } from '../context.js';
import { createUser, deleteUserByEmail, listUsers, rotateKey } from '../features/account/service.js';
import { fail } from '../lib/errors.js';
const USAGE = `Redirectory CLI
  user create --email E [--password P] [--username U]   prints {"id","email","username","apiKey"}
  user list                                             prints a JSON array of users
  user delete --email E
  key rotate --email E                                  the old key stops working at once
  migrate                                               brings the database schema up to date
Honours DATABASE_URL like the server.`;
async function run(argv) {
    const { values, positionals } = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { email: { type: 'string' }, password: { type: 'string' }, username: { type: 'string' }, help: { type: 'boolean' } },
    });
    const name = positionals.join(' ');
    if (values.help || !name)
        return usage(values.help ? 0 : 2);
    const config = loadConfig();
    // The CLI's stdout is for its JSON answer only; logs go to stderr and only when something is wrong.
    const ctx = await createContext(config, pino({ level: 'warn' }, destination(2)));
    const need = (v, flag) => {
        if (!v)
            throw fail('invalid_field', `--${flag} is required.`);
        return v;
    };
    const commands = {
        'user create': (a) => createUser(ctx, { email: need(a.email, 'email'), password: a.password, username: a.username }),
        'user list': () => listUsers(ctx),
        'user delete': (a) => deleteUserByEmail(ctx, need(a.email, 'email')),
        'key rotate': (a) => rotateKey(ctx, need(a.email, 'email')),
        migrate: async () => ({ migrated: true }),
    };
    try {
        const command = commands[name];
        if (!command)
            return usage(2);
        const { help: _help, ...args } = values;
        process.stdout.write(`${JSON.stringify(await command(args))}\n`);
        return 0;
    }
    catch (error) {
        process.stderr.write(`redirectory: ${error instanceof Error ? error.message : String(error)}\n`);
        return 1;
    }
    finally {
        await ctx.close();
    }
}
function usage(code) {
    (code === 0 ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return code;
}
run(process.argv.slice(2)).then((code) => process.exit(code), (error) => {
    process.stderr.write(`redirectory: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
});
//# sourceMappingURL=main.js.map