import { createHmac } from 'node:crypto';
import type { CountedKind, VariantKind } from '../db/types.js';
import { memoize } from '../lib/bounded-cache.js';
import { countryOf, normalizeIp } from '../infra/geo.js';
import { FIELDS, KINDS, type VisitBatch } from './visit-columns.js';
import { describeAgent, deviceKind, referrerHost, socialNetwork, UNKNOWN, type DeviceKind } from '../lib/visitor.js';
import { visitLog, type VisitLog } from './visit-log.js';
import { primaryLanguage } from '../lib/languages.js';

/** Dimensions of label counts: referrers in click_stats, the others in click_summaries. */
export const DIMENSIONS = ['country', 'referrer', 'browser', 'os', 'social', 'device', 'language'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** One target's share of a batch: its click count, label counts, clicks per hour and distinct visitor hashes. */
export interface TargetBatch {
  kind: CountedKind;
  id: number;
  /** The account owning the target. */
  owner: number;
  clicks: number;
  /** Label code → visits; codes index the batch's `labels`, shared by its targets. */
  counts: Map<number, number>;
  labels: BatchLabels;
  /** The latest UTC hour of its visits and its clicks in that hour; a batch is about a second of visits. */
  hour: number;
  hourClicks: number;
  /** Clicks of earlier hours, by hour: null unless the batch straddles an hour (or a clock stepped back). */
  earlier: Map<number, number> | null;
  /** Visitor hash → the hour of its first visit in the batch, where it counts as unique if new (none for a variant). */
  visitors: Map<string, number>;
  /**
   * A link's visitors served a split variant: visitor hash → the first variant served them in the batch and its
   * hour, as `hour * 1024 + variant` (servedVariant); null without split visits.
   */
  variantOf: Map<string, number> | null;
  /** Batch indexes of its counted visits, in arrival order, for the visit log (empty when the log is off). */
  logged: number[];
}

export interface Label {
  dimension: Dimension;
  label: string;
}

export const targetKey = (kind: CountedKind, id: number) => `${kind}:${id}`;

/** A target as one number (memo keys): link and QR ids interleaved, split variants negative (n < 1024). */
export function targetNumber(kind: CountedKind, id: number): number {
  if (kind === 'link' || kind === 'qr') return id * KINDS.length + KINDS.indexOf(kind);
  return -(id * 1024 + Number(kind.slice(8))) - 1;
}

/** Dimensions counted in the target's summary row; referrers (unbounded) get rows of their own. */
export const SUMMARIZED = new Set<string>(['country', 'browser', 'os', 'social', 'device', 'language']);

/** A label's key in a summary's `labels` object (dimension names hold no colon). */
export const labelKey = (dimension: string, label: string) => `${dimension}:${label}`;

// Referers recur far more than they vary across batches; each is parsed once.
const referrerOf = memoize((referer) => {
  const host = referrerHost(referer);
  return { host, social: socialNetwork(host) };
}, 20_000);

/** Label codes of one distinct user agent (null for a bot) and of one distinct referer (social -1: none). */
export type AgentCodes = { browser: number; os: number; device: DeviceKind; deviceCode: number } | null;
export interface ReferrerCodes {
  host: number;
  social: number;
}

/** A batch's aggregates, and its counted visits for the visit log (null when the log is off). */
export interface AggregatedBatch {
  targets: TargetBatch[];
  visits: VisitLog | null;
}

/**
 * Turns a batch of raw visits into per-target aggregates, dropping bots (redirected but never counted),
 * so each target is one summary upsert plus one per referrer. Each distinct header of the batch is
 * parsed once into label codes, so a visit costs a few numeric map updates: at 1M links nearly every
 * visit is a target of its own, and five maps per target were most of the aggregation's cost. Targets
 * come out sorted by kind and id, so concurrent writers (WORKERS, several nodes) lock rows in one order.
 * One per writer: it holds the visitor hash memo.
 */
export function clickAggregator(secret: string, options: { visitLog: boolean } = { visitLog: true }): (batch: VisitBatch) => AggregatedBatch {
  // Salted so a stored hash cannot be reversed by hashing every address; no raw IP is kept.
  const hashOf = memoize((visitor) => createHmac('sha256', secret).update(visitor).digest('hex').slice(0, 32), 10_000, 1_024);
  return (batch) => {
    const { kinds, ids, owners, hours, fields, strings } = batch;
    const table = new LabelTable();
    const agents: AgentCodes[] = [];
    const countries: number[] = [];
    const referrers: ReferrerCodes[] = [];
    const languages: number[] = [];
    const variantOfRule: number[] = [];
    const variantTargets = new Map<number, TargetBatch>();
    const visits = options.visitLog ? visitLog(batch, table, agents, countries, referrers) : null;
    const visitors = new Map<number, string>();
    const targets = new Map<number, TargetBatch>();
    for (let i = 0; i < kinds.length; i++) {
      const ip = fields[i * FIELDS]!;
      const ua = fields[i * FIELDS + 1]!;
      const referer = fields[i * FIELDS + 2]!;
      const accept = fields[i * FIELDS + 4]!;
      const rule = fields[i * FIELDS + 3]!;
      const agent = agents[ua] === undefined ? (agents[ua] = parseAgent(table, strings[ua]!)) : agents[ua];
      if (agent === null) continue;
      const country = (countries[ip] ??= table.code('country', countryOf(normalizeIp(strings[ip]!))?.name ?? UNKNOWN));
      const referrer = (referrers[referer] ??= parseReferrer(table, strings[referer]!));
      const language = (languages[accept] ??= table.code('language', primaryLanguage(strings[accept]!)));
      const pair = ip * strings.length + ua;
      let visitor = visitors.get(pair);
      if (visitor === undefined) visitors.set(pair, (visitor = hashOf(`${normalizeIp(strings[ip]!)}\n${strings[ua]}`)));
      const target = targetOf(targets, kinds[i]!, ids[i]!, owners[i]!, table);
      target.clicks += 1;
      if (visits) target.logged.push(i);
      const hour = hours[i]!;
      if (!target.visitors.has(visitor)) target.visitors.set(visitor, hour);
      if (hour === target.hour) target.hourClicks += 1;
      else addHour(target, hour);
      const { counts } = target;
      bump(counts, country);
      bump(counts, agent.browser);
      bump(counts, agent.os);
      bump(counts, agent.deviceCode);
      bump(counts, language);
      bump(counts, referrer.host);
      if (referrer.social >= 0) bump(counts, referrer.social);
      const variant = (variantOfRule[rule] ??= splitVariant(strings[rule]!));
      if (variant >= 0) countVariant(variantTargets, target, variant, visitor, hour);
    }
    table.sort();
    const all = [...targets.values(), ...variantTargets.values()];
    return { targets: all.sort(lockOrder), visits };
  };
}

/**
 * By kind, then id. Code-unit order, which for these kinds (`link`, `qr`, `variant:<n>`) is also localeCompare's, so
 * nodes of either version lock rows in one order; localeCompare called ICU for each of a batch's ~10^4 comparisons.
 */
function lockOrder(a: TargetBatch, b: TargetBatch): number {
  return a.kind === b.kind ? a.id - b.id : a.kind < b.kind ? -1 : 1;
}

/** A batch's distinct (dimension, label) pairs by code, and each code's place in lock order. */
export interface BatchLabels {
  readonly byCode: readonly Label[];
  readonly rank: readonly number[];
  /** By code: `"dimension:label":` as the summary's labels JSON writes it, or null for a dimension of its own rows. */
  readonly summaryKeys: readonly (string | null)[];
}

/** Gives each distinct (dimension, label) of a batch a small integer code; `sort` ranks them once. */
class LabelTable implements BatchLabels {
  readonly byCode: Label[] = [];
  readonly rank: number[] = [];
  readonly summaryKeys: (string | null)[] = [];
  private readonly index = new Map<string, number>();

  code(dimension: Dimension, label: string): number {
    const key = `${dimension}\n${label}`;
    let code = this.index.get(key);
    if (code === undefined) {
      this.index.set(key, (code = this.byCode.push({ dimension, label }) - 1));
      this.summaryKeys.push(SUMMARIZED.has(dimension) ? `${JSON.stringify(labelKey(dimension, label))}:` : null);
    }
    return code;
  }

  sort(): void {
    const order = this.byCode.map((_, code) => code).sort((a, b) => compareLabels(this.byCode[a]!, this.byCode[b]!));
    order.forEach((code, position) => (this.rank[code] = position));
  }
}

const DIMENSION_ORDER = new Map<string, number>(DIMENSIONS.map((d, i) => [d, i]));

function compareLabels(a: Label, b: Label): number {
  return DIMENSION_ORDER.get(a.dimension)! - DIMENSION_ORDER.get(b.dimension)! || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

function parseAgent(table: LabelTable, userAgent: string): AgentCodes {
  const agent = describeAgent(userAgent);
  if (agent.bot) return null;
  const device = deviceKind(agent.device);
  return { browser: table.code('browser', agent.browser), os: table.code('os', agent.os), device, deviceCode: table.code('device', device) };
}

function parseReferrer(table: LabelTable, referer: string): ReferrerCodes {
  const { host, social } = referrerOf(referer);
  return { host: table.code('referrer', host), social: social ? table.code('social', social) : -1 };
}

/** `kind` as VisitBatch stores it: an index into KINDS. */
function targetOf(targets: Map<number, TargetBatch>, kind: number, id: number, owner: number, labels: BatchLabels): TargetBatch {
  const key = id * KINDS.length + kind;
  let target = targets.get(key);
  if (!target) targets.set(key, (target = emptyTarget(KINDS[kind]!, id, owner, labels)));
  return target;
}

const SPLIT_RULE = /(?:^|\/)split:(\d{1,3})$/;

/** The split variant a visit was served (its rule `split:2`, `rule:0/split:3`), or -1. */
function splitVariant(rule: string): number {
  const n = SPLIT_RULE.exec(rule)?.[1];
  return n === undefined ? -1 : Number(n);
}

/** A link's `variantOf` value: a variant (below 1024: SPLIT_RULE allows three digits) and the hour it was served in. */
const VARIANT_SPAN = 1024;
export const servedVariant = (value: number) => ({ n: value % VARIANT_SPAN, hour: Math.floor(value / VARIANT_SPAN) });

/** A variant's kind by its number (at most three digits, SPLIT_RULE), made once: not a string a visit. */
const VARIANT_KINDS: VariantKind[] = Array.from({ length: 1000 }, (_, n): VariantKind => `variant:${n}`);

/**
 * A split visit counts again for its variant: clicks and hours of its own (no labels, no visit log). Its visitors
 * are its link's: one new to the link is new to the variant first served them (batch-rows.ts#variantFresh), as a
 * visitor keeps their variant. Keyed by a number (link id and variant), not a string built for every visit.
 */
function countVariant(variants: Map<number, TargetBatch>, link: TargetBatch, n: number, visitor: string, hour: number): void {
  const key = link.id * 1000 + n;
  let target = variants.get(key);
  if (!target) variants.set(key, (target = variantTarget(VARIANT_KINDS[n]!, link)));
  target.clicks += 1;
  const served = (link.variantOf ??= new Map<string, number>());
  if (!served.has(visitor)) served.set(visitor, hour * VARIANT_SPAN + n);
  if (hour === target.hour) target.hourClicks += 1;
  else addHour(target, hour);
}

function emptyTarget(
  kind: CountedKind,
  id: number,
  owner: number,
  labels: BatchLabels,
  counts: Map<number, number> = new Map(),
  visitors: Map<string, number> = new Map(),
  logged: number[] = [],
): TargetBatch {
  return { kind, id, owner, clicks: 0, counts, labels, hour: -1, hourClicks: 0, earlier: null, visitors, variantOf: null, logged };
}

// A variant counts clicks and hours only: its label counts, visitors and log are these, read and never written, so a
// batch's thousands of variants allocate no maps of their own.
const NO_COUNTS: Map<number, number> = new Map();
const NO_VISITORS: Map<string, number> = new Map();
const NOT_LOGGED: number[] = [];

function variantTarget(kind: VariantKind, link: TargetBatch): TargetBatch {
  return emptyTarget(kind, link.id, link.owner, link.labels, NO_COUNTS, NO_VISITORS, NOT_LOGGED);
}

/** Counts a visit of another hour than the target's latest: a later hour becomes the latest. */
function addHour(target: TargetBatch, hour: number): void {
  if (hour < target.hour) return bump((target.earlier ??= new Map<number, number>()), hour);
  if (target.hourClicks > 0) (target.earlier ??= new Map()).set(target.hour, target.hourClicks);
  target.hour = hour;
  target.hourClicks = 1;
}

export function bump(counts: Map<number, number>, code: number): void {
  counts.set(code, (counts.get(code) ?? 0) + 1);
}
