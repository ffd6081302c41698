import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { olderInstall } from './helpers/older-install.js';
import { processDb } from './helpers/process-db.js';

// Migration 0021: deliveries queued before it learn their webhook's account; webhooks made before it have no key.
it('gives existing deliveries their account and leaves older webhooks without a key', async () => {
  const older = await processDb();
  try {
    await olderInstall(older.env.DATABASE_URL!, '0021', async (db) => {
      await sql`insert into users (id, email, username, password_hash, created_at) values (7, 'm@example.com', 'm', '', '2026-01-01 00:00:00')`.execute(
        db,
      );
      await sql`insert into webhooks (id, user_id, url, events, secret, created_at)
        values (3, 7, 'https://example.com/h', '["qr.deleted"]', 'whsec_x', '2026-01-01 00:00:00')`.execute(db);
      await sql`insert into webhook_deliveries (webhook_id, event, event_id, body, created_at, next_at)
        values (3, 'qr.deleted', 'evt_1', '{}', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')`.execute(db);
    });
    await older.withCtx(async ({ db }) => {
      const delivery = await db.selectFrom('webhook_deliveries').select(['user_id']).executeTakeFirstOrThrow();
      expect(Number(delivery.user_id)).toBe(7);
      const hook = await db.selectFrom('webhooks').select(['key_id', 'via']).executeTakeFirstOrThrow();
      expect(hook).toEqual({ key_id: null, via: '' });
    });
  } finally {
    await older.close();
  }
});
