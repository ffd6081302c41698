import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import { isPostgres } from '../dialect.js';

export type Builder = CreateTableBuilder<string, never>;

/** An auto-increment integer primary key in the dialect's own idiom. */
export function withId(db: Kysely<unknown>, table: string): Builder {
  const builder = db.schema.createTable(table) as Builder;
  return isPostgres(db)
    ? builder.addColumn('id', 'serial', (c) => c.primaryKey())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

const text = (b: Builder, name: string) => b.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await text(
    text(
      withId(db, 'users')
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull()),
      'avatar',
    ).addColumn('status', 'text', (c) => c.notNull().defaultTo('pro')),
    'api_key_hash',
  )
    .addColumn('expires', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_api_key_hash_unique', ['api_key_hash'])
    .execute();

  await text(
    text(
      withId(db, 'domains')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('host', 'text', (c) => c.notNull().unique())
        .addColumn('scheme', 'text', (c) => c.notNull()),
      'redirect_root',
    ),
    'redirect_404',
  )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('domains_user').on('domains').columns(['user_id', 'id']).execute();

  await createLinks(db);
  await createGrouping(db);
  await createPages(db);
  await createQr(db);
  await createClicks(db);
}

async function createLinks(db: Kysely<unknown>) {
  let b = withId(db, 'links')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('domain_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alias', 'text', (c) => c.notNull())
    .addColumn('long_url', 'text', (c) => c.notNull());
  for (const name of ['title', 'description', 'meta_title', 'meta_description', 'meta_image']) b = text(b, name);
  b = b
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('direct'))
    .addColumn('splash_id', 'integer')
    .addColumn('overlay_id', 'integer')
    .addColumn('password_hash', 'text')
    .addColumn('expiry', 'text');
  for (const name of ['geo_targets', 'device_targets', 'language_targets', 'parameters']) {
    b = b.addColumn(name, 'text', (c) => c.notNull().defaultTo('[]'));
  }
  await b
    .addColumn('campaign_id', 'integer')
    .addColumn('clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('unique_clicks', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('links_domain_alias_unique', ['domain_id', 'alias'])
    .execute();
  await db.schema.createIndex('links_user_date').on('links').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('links_user_clicks').on('links').columns(['user_id', 'clicks']).execute();
  await db.schema.createIndex('links_campaign').on('links').columns(['campaign_id']).execute();

  await text(
    text(
      text(
        withId(db, 'pixels').addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade')),
        'type',
      ),
      'name',
    ),
    'tag',
  )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pixels_user').on('pixels').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('link_pixels')
    .addColumn('link_id', 'integer', (c) => c.notNull().references('links.id').onDelete('cascade'))
    .addColumn('pixel_id', 'integer', (c) => c.notNull().references('pixels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('link_pixels_pk', ['link_id', 'pixel_id'])
    .execute();
  await db.schema.createIndex('link_pixels_pixel').on('link_pixels').columns(['pixel_id']).execute();
}

async function createGrouping(db: Kysely<unknown>) {
  await withId(db, 'campaigns')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.unique())
    .addColumn('public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('campaigns_user_name_unique', ['user_id', 'name'])
    .execute();

  await text(
    text(
      withId(db, 'channels')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull()),
      'description',
    ),
    'color',
  )
    .addColumn('starred', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('channels_user_name_unique', ['user_id', 'name'])
    .execute();

  await db.schema
    .createTable('channel_items')
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('channels.id').onDelete('cascade'))
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('channel_items_pk', ['channel_id', 'item_type', 'item_id'])
    .execute();
  await db.schema.createIndex('channel_items_item').on('channel_items').columns(['item_type', 'item_id']).execute();
}

async function createPages(db: Kysely<unknown>) {
  const owner = (b: Builder) =>
    b.addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade')).addColumn('name', 'text', (c) => c.notNull());
  await text(text(text(owner(withId(db, 'splash_pages')), 'title'), 'content'), 'image')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await text(text(text(owner(withId(db, 'overlays')), 'message'), 'button_text'), 'button_link')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await text(text(owner(withId(db, 'bio_pages')), 'description'), 'avatar')
    .addColumn('alias', 'text', (c) => c.notNull().unique())
    .addColumn('links', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  for (const table of ['splash_pages', 'overlays', 'bio_pages']) {
    await db.schema.createIndex(`${table}_user`).on(table).columns(['user_id', 'id']).execute();
  }
}

async function createQr(db: Kysely<unknown>) {
  await text(
    text(
      text(
        withId(db, 'qr_codes')
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('slug', 'text', (c) => c.notNull().unique())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('payload', 'text', (c) => c.notNull()),
        'background',
      ),
      'foreground',
    ),
    'logo',
  )
    .addColumn('scans', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('unique_scans', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qr_codes_user').on('qr_codes').columns(['user_id', 'id']).execute();
}

async function createClicks(db: Kysely<unknown>) {
  let b = (isPostgres(db) ? db.schema.createTable('clicks').addColumn('id', 'bigserial', (c) => c.primaryKey()) : withId(db, 'clicks')) as Builder;
  b = b
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull());
  for (const name of ['country', 'referrer', 'browser', 'os', 'device', 'language', 'visitor_hash']) b = text(b, name);
  await b.execute();
  await db.schema.createIndex('clicks_target').on('clicks').columns(['target_kind', 'target_id', 'created_at']).execute();

  await keyedOnly(
    db,
    db.schema
      .createTable('click_stats')
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('dimension', 'text', (c) => c.notNull())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('click_stats_pk', ['target_kind', 'target_id', 'dimension', 'label']) as Builder,
  ).execute();
  await db.schema.createIndex('click_stats_top').on('click_stats').columns(['target_kind', 'target_id', 'dimension', 'count']).execute();

  await keyedOnly(
    db,
    db.schema
      .createTable('click_uniques')
      .addColumn('target_kind', 'text', (c) => c.notNull())
      .addColumn('target_id', 'integer', (c) => c.notNull())
      .addColumn('visitor_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('click_uniques_pk', ['target_kind', 'target_id', 'visitor_hash']) as Builder,
  ).execute();
}

/**
 * Tables upserted on every click flush are stored in their primary key on SQLite (WITHOUT ROWID), so
 * each write touches one b-tree instead of a rowid table plus its key index. PostgreSQL has no such option.
 */
export function keyedOnly(db: Kysely<unknown>, builder: Builder): Builder {
  return isPostgres(db) ? builder : builder.modifyEnd(sql`without rowid`);
}

export async function down(): Promise<void> {
  throw new Error('Redirectory migrations are forward-only.');
}
