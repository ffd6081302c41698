import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Booleans are stored as 0/1 integers on every dialect so one set of queries serves both. */
type Flag = number;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  /** emailKey(email), unique; null only for an account whose e-mail differed only in case from an older one's before 0012. */
  email_key: string | null;
  username: string;
  password_hash: string;
  avatar: Generated<string>;
  status: Generated<string>;
  expires: string | null;
  /** Retired by migration 0010 (keys live in api_keys): a unique placeholder no key hashes to. */
  api_key_hash: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface DomainsTable {
  id: Generated<number>;
  user_id: number;
  host: string;
  scheme: string;
  redirect_root: Generated<string>;
  redirect_404: Generated<string>;
  created_at: string;
}

/** How a link redirects: the one list of link types, which input checks, exports and the redirect derive from. */
export const LINK_TYPES = ['direct', 'frame', 'splash', 'overlay'] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export interface LinksTable {
  id: Generated<number>;
  user_id: number;
  /** 0 is the default domain (BASE_URL's host); aliases are unique per domain_id. */
  domain_id: Generated<number>;
  alias: string;
  long_url: string;
  title: Generated<string>;
  description: Generated<string>;
  /** A LinkType (text, so an unknown value read back falls back to direct); splash_id / overlay_id name the custom page. */
  type: Generated<string>;
  splash_id: number | null;
  overlay_id: number | null;
  password_hash: string | null;
  expiry: string | null;
  /** JSON arrays in the spec's request shapes. */
  geo_targets: Generated<string>;
  device_targets: Generated<string>;
  language_targets: Generated<string>;
  parameters: Generated<string>;
  /** Rules, split, visit cap and expired URL as add takes them (JSON), or "" when none (src/db/migrations/0016). */
  routing: Generated<string>;
  meta_title: Generated<string>;
  meta_description: Generated<string>;
  meta_image: Generated<string>;
  campaign_id: number | null;
  created_at: string;
  updated_at: string;
  /** 0 turns the link's health checks off (src/db/migrations/0017). */
  health_check: Generated<Flag>;
  /** Where visitors go while the destination is broken; '' for none. */
  fallback_url: Generated<string>;
}

export interface LinkPixelsTable {
  link_id: number;
  pixel_id: number;
}

export interface LinkTagsTable {
  link_id: number;
  user_id: number;
  tag: string;
}

export interface PixelsTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  name: string;
  tag: string;
  created_at: string;
}

export interface CampaignsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  slug: string | null;
  public: Generated<Flag>;
  created_at: string;
}

export interface ChannelsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: Generated<string>;
  color: Generated<string>;
  starred: Generated<Flag>;
  created_at: string;
}

export interface ChannelItemsTable {
  channel_id: number;
  item_type: string;
  item_id: number;
  created_at: string;
}

export interface SplashPagesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  title: Generated<string>;
  content: Generated<string>;
  image: Generated<string>;
  created_at: string;
}

export interface OverlaysTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  name: string;
  message: Generated<string>;
  button_text: Generated<string>;
  button_link: Generated<string>;
  /** A contact overlay's address; '' for none. */
  email: Generated<string>;
  created_at: string;
}

export interface BioPagesTable {
  id: Generated<number>;
  user_id: number;
  alias: string;
  name: string;
  description: Generated<string>;
  avatar: Generated<string>;
  /** JSON array of {title, url}. */
  links: Generated<string>;
  created_at: string;
}

export interface QrCodesTable {
  id: Generated<number>;
  user_id: number;
  /** Public handle in `{BASE_URL}/qr/{slug}`; random so codes cannot be enumerated. */
  slug: string;
  name: string;
  type: string;
  /** JSON of the structured data the client sent. */
  data: string;
  /** What the code encodes (for link codes, our tracking address). */
  payload: string;
  background: Generated<string>;
  foreground: Generated<string>;
  logo: Generated<string>;
  created_at: string;
}

/**
 * In the click tables, `variant:<n>` is the n-th split variant of the link whose id it carries (docs/decisions/0009): its own
 * counters, uniques and hourly buckets, written beside the link's and never in the account's series.
 */
export type TargetKind = 'link' | 'qr';
export type VariantKind = `variant:${number}`;
/** What the click tables count: targets, and split variants of links. */
export type CountedKind = TargetKind | VariantKind;

/**
 * A target's referrer counts, a row per referring host (dimension 'referrer'): the one dimension whose
 * labels come from the visitor without bound, so each is a row of its own rather than part of a summary.
 */
export interface ClickStatsTable {
  target_kind: CountedKind;
  target_id: number;
  dimension: string;
  label: string;
  count: number;
}

/**
 * A target's counters and its label counts of the bounded dimensions (country, browser, os, social) as
 * one JSON object keyed `dimension:label`, so a click of a target adds to one row (src/db/migrations/0003).
 */
export interface ClickSummariesTable {
  target_kind: CountedKind;
  target_id: number;
  clicks: number;
  uniques: number;
  labels: string;
  /** The target's open hour (hours since 1970) and its counts, not yet in click_hours (src/db/migrations/0006). */
  hour: Generated<number>;
  hour_clicks: Generated<number>;
  hour_uniques: Generated<number>;
  /** The target's newest visit pack and the visits its packs hold (src/db/migrations/0007). */
  visit_pack: number | null;
  visit_count: Generated<number>;
}

/** Per click journal (one per process), the last batch committed (src/db/migrations/0015). */
export interface ClickJournalTable {
  journal: string;
  seq: number;
}

/** Deleted links and QR codes, kept a day so clicks still queued for them (a link's: its variants' too) are dropped. */
export interface DeletedTargetsTable {
  target_kind: TargetKind;
  target_id: number;
  deleted_at: string;
}

export interface ClickUniquesTable {
  target_kind: CountedKind;
  target_id: number;
  visitor_hash: string;
}

/** Clicks of a target in one UTC hour (hours since 1970) or, once rolled up, one UTC day (src/db/migrations/0006). */
export interface ClickHoursTable {
  target_kind: CountedKind;
  target_id: number;
  hour: number;
  clicks: number;
  uniques: number;
}

/** An account's clicks per UTC hour (src/db/migrations/0006): the account-wide series. */
export interface AccountHoursTable {
  user_id: number;
  hour: number;
  clicks: number;
  uniques: number;
}

export interface AccountDaysTable {
  user_id: number;
  day: number;
  clicks: number;
  uniques: number;
}

export interface ClickDaysTable {
  target_kind: CountedKind;
  target_id: number;
  day: number;
  clicks: number;
  uniques: number;
}

/** A target's counted visits of one click batch (src/db/migrations/0007): labels only, no IP address or user agent. */
export interface VisitPacksTable {
  id: Generated<number>;
  target_kind: TargetKind;
  target_id: number;
  /** The account owning the target when the pack was written (null for packs of targets gone before migration 0020). */
  owner: number | null;
  /** The target's previous pack, set by a trigger when a later pack replaces this one on the summary row. */
  prev: number | null;
  /** The second (since 1970) the pack's first visit was served. */
  at: number;
  /** Visits in the pack. */
  n: number;
  /** JSON array of the pack's distinct labels. */
  labels: string;
  /** Per visit its second (offset from `at`) and six indexes into `labels`, as bytes (src/clicks/visit-log.ts). */
  codes: Buffer;
}

/** A CSV import of links (src/db/migrations/0008): its progress and first failed rows, for every node to answer. */
export interface ImportJobsTable {
  id: Generated<number>;
  user_id: number;
  /** running | finished | failed */
  status: string;
  format: string;
  /** Data rows in the file; null until they are counted. */
  total: number | null;
  done: Generated<number>;
  failed: Generated<number>;
  /** Data rows read and checked so far (the file is read whole before the first link is created). */
  processed: Generated<number>;
  /** JSON array of {row, code, message}. */
  errors: Generated<string>;
  message: Generated<string>;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** A dashboard session (src/db/migrations/0009): the token's hash, never the token. */
export interface SessionsTable {
  token_hash: string;
  user_id: number;
  csrf: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** An API key (src/db/migrations/0010): its SHA-256, never the key. `scopes` is a JSON array of scope names. */
export interface ApiKeysTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  key_hash: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

/** One entry of the account activity log (src/db/migrations/0011). */
export interface AccountActivityTable {
  id: Generated<number>;
  user_id: number;
  event: string;
  via: string;
  ip: string;
  agent: string;
  created_at: string;
}

/**
 * A broken destination of a target with several (docs/decisions/0010): kind `link>42` for link 42, the id a
 * 31-bit hash of the destination's address, never due.
 */
export type DestinationKind = `${TargetKind}>${number}`;

/** Per checked target (a link; a QR link code) its health and its check schedule (src/db/migrations/0017). */
export interface HealthChecksTable {
  target_kind: TargetKind | DestinationKind;
  target_id: number;
  /** 'ok', 'broken', 'unreachable' or 'unknown' (never checked). */
  status: Generated<string>;
  /** The final answer's HTTP status; null without one. */
  code: number | null;
  checked_at: string | null;
  /** When the status last changed. */
  since: string | null;
  due_at: string;
  /** While later than now, a node is checking the target; '' when none is. */
  lease_until: Generated<string>;
  /** The destination the next check starts from: a check cut short by its budget goes on there (migration 0022). */
  resume_at: Generated<number>;
}

/** A webhook of an account (src/db/migrations/0018). */
export interface WebhooksTable {
  id: Generated<number>;
  user_id: number;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** The signing secret, `whsec_…`: shown once, kept to sign. */
  secret: string;
  active: Generated<number>;
  /** Why it was disabled; '' while active. */
  reason: Generated<string>;
  /** The first failed attempt since the last success; null while deliveries succeed. */
  failing_since: string | null;
  created_at: string;
  /** The API key that made it; null when a dashboard session (or an older version) did. */
  key_id: number | null;
  /** Who made it, as the activity log says it: the key's name then, `session`, or '' (made before this was kept). */
  via: Generated<string>;
}

/** One event for one webhook (the outbox row and its delivery state). */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhook_id: number;
  /** The webhook's account (the sender's turns are per account). */
  user_id: number;
  event: string;
  event_id: string;
  body: string;
  /** 'pending', 'delivered' or 'failed'. */
  status: Generated<string>;
  attempts: Generated<number>;
  response_code: number | null;
  created_at: string;
  /** When the next attempt is due; null once delivered or failed. */
  next_at: string | null;
  /** Its first failed attempt (since a resend): it is retried WEBHOOK_GIVE_UP_MS from then; null before. */
  retry_from: string | null;
  /** While later than now, a node is sending it; '' when none is. */
  lease_until: Generated<string>;
}

export interface Database {
  users: UsersTable;
  settings: SettingsTable;
  domains: DomainsTable;
  links: LinksTable;
  link_pixels: LinkPixelsTable;
  link_tags: LinkTagsTable;
  pixels: PixelsTable;
  campaigns: CampaignsTable;
  channels: ChannelsTable;
  channel_items: ChannelItemsTable;
  splash_pages: SplashPagesTable;
  overlays: OverlaysTable;
  bio_pages: BioPagesTable;
  qr_codes: QrCodesTable;
  click_stats: ClickStatsTable;
  click_summaries: ClickSummariesTable;
  click_journal: ClickJournalTable;
  click_uniques: ClickUniquesTable;
  deleted_targets: DeletedTargetsTable;
  click_hours: ClickHoursTable;
  click_days: ClickDaysTable;
  account_hours: AccountHoursTable;
  account_days: AccountDaysTable;
  visit_packs: VisitPacksTable;
  import_jobs: ImportJobsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  account_activity: AccountActivityTable;
  health_checks: HealthChecksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type ActivityRow = Selectable<AccountActivityTable>;
export type DomainRow = Selectable<DomainsTable>;
export type LinkRow = Selectable<LinksTable>;
export type NewLink = Insertable<LinksTable>;
export type LinkUpdate = Updateable<LinksTable>;
/** The columns a link's type sets together. */
export type LinkTypeColumns = Pick<LinkRow, 'splash_id' | 'overlay_id'> & { type: LinkType };
export type PixelRow = Selectable<PixelsTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type ChannelRow = Selectable<ChannelsTable>;
export type QrRow = Selectable<QrCodesTable>;
export type SplashRow = Selectable<SplashPagesTable>;
export type OverlayRow = Selectable<OverlaysTable>;
export type BioRow = Selectable<BioPagesTable>;
export type ImportJobRow = Selectable<ImportJobsTable>;
