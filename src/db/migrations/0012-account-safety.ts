import { sql, type Kysely } from 'kysely';
import { emailKey } from '../../lib/email-key.js';
import { isPostgres } from '../dialect.js';

/**
 * Two changes for account safety (docs/decisions/0001-case-insensitive-emails.md):
 * - users.email_key holds the lower-cased e-mail under a unique index, so `REG1@x.io` cannot join `reg1@x.io`
 *   even when two requests race. Existing accounts whose e-mails differ only in case are kept: the oldest takes
 *   the key, the others keep a null key (a unique index admits several nulls) and are reported at every start.
 * - settings.account_existed records that an account was ever made, so the first-account setup token stays
 *   dead after the last account is deleted. Installations that had one count: rows in users, or an id counter
 *   that has moved (an account made and deleted before this release).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute();
  const { rows } = await sql<{ id: number; email: string }>`select id, email from users order by id`.execute(db);
  const taken = new Set<string>();
  for (const row of rows) {
    const key = emailKey(row.email);
    if (taken.has(key)) continue;
    taken.add(key);
    await sql`update users set email_key = ${key} where id = ${row.id}`.execute(db);
  }
  await db.schema.createIndex('users_email_key_unique').on('users').column('email_key').unique().execute();
  if (rows.length > 0 || (await idCounterMoved(db))) {
    await sql`insert into settings (key, value) values ('account_existed', ${new Date().toISOString()})`.execute(db);
  }
}

async function idCounterMoved(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = isPostgres(db)
    ? await sql<{ last: unknown }>`select pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass) as last`.execute(db)
    : await sql<{ last: unknown }>`select seq as last from sqlite_sequence where name = 'users'`.execute(db);
  return rows[0]?.last != null && Number(rows[0].last) > 0;
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
