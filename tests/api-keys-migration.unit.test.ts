import { createHash } from 'node:crypto';
import { Migrator, sql, type Migration } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect } from '../src/db/connect.js';
import { isPostgres } from '../src/db/dialect.js';
import * as m1 from '../src/db/migrations/0001-initial.js';
import * as m2 from '../src/db/migrations/0002-counters-in-click-stats.js';
import * as m3 from '../src/db/migrations/0003-click-summaries.js';
import * as m4 from '../src/db/migrations/0004-overlay-email.js';
import * as m5 from '../src/db/migrations/0005-canonical-domain-hosts.js';
import * as m6 from '../src/db/migrations/0006-click-series.js';
import * as m7 from '../src/db/migrations/0007-visit-log.js';
import * as m8 from '../src/db/migrations/0008-import-jobs.js';
import * as m9 from '../src/db/migrations/0009-sessions.js';
import { accountByApiKey, listApiKeys } from '../src/features/account/keys/service.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';

const BEFORE_KEYS: Record<string, Migration> = {
  '0001-initial': m1,
  '0002-counters-in-click-stats': m2,
  '0003-click-summaries': m3,
  '0004-overlay-email': m4,
  '0005-canonical-domain-hosts': m5,
  '0006-click-series': m6,
  '0007-visit-log': m7,
  '0008-import-jobs': m8,
  '0009-sessions': m9,
};

let store: ProcessDb;
beforeAll(async () => {
  store = await processDb();
});
afterAll(() => store.close());

const KEY = 'an-api-key-of-the-release-before-scopes';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An installation of the release before api_keys: one account with a key, one made before keys existed. */
async function releaseBeforeKeys(): Promise<void> {
  const { db } = connect(store.env.DATABASE_URL!);
  try {
    const migrationTableSchema = isPostgres(db)
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema
      : undefined;
    const { error } = await new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => BEFORE_KEYS } }).migrateToLatest();
    if (error) throw error;
    await sql`insert into users (email, username, password_hash, api_key_hash, created_at)
      values ('keyed@example.com', 'keyed', 'x', ${sha256(KEY)}, '2025-01-01 00:00:00'), ('bare@example.com', 'bare', 'x', '', '2025-01-02 00:00:00')`.execute(
      db,
    );
  } finally {
    await db.destroy();
  }
}

it('turns each existing API key into the account\'s full key "default", which keeps working', async () => {
  await releaseBeforeKeys();
  await store.withCtx(async (ctx) => {
    const account = await accountByApiKey(ctx, KEY);
    expect(account).toMatchObject({ keyHash: sha256(KEY), key: { name: 'default', scopes: ['*'], expires: null } });
    expect(await listApiKeys(ctx, account!.userId)).toEqual([
      { id: expect.any(Number), name: 'default', scopes: ['*'], created: '2025-01-01 00:00:00', lastUsed: expect.any(String), expires: '' },
    ]);
    const users = await ctx.db.selectFrom('users').select(['email', 'api_key_hash']).orderBy('id').execute();
    expect(users.map((u) => u.api_key_hash)).toEqual(users.map(() => expect.stringMatching(/^retired:/)));
    expect(await ctx.db.selectFrom('api_keys').select('user_id').execute()).toHaveLength(1);
  });
});
