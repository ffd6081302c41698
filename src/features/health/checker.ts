import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { InFlight, Rounds } from '../../infra/rounds.js';
import { OutboundClient } from '../../infra/outbound/client.js';
import { outboundUserAgent } from '../../infra/outbound/user-agent.js';
import { formatTimestamp } from '../../lib/time.js';
import { healthSources, type Destinations } from './ports.js';
import { carryOver, probeAll, type Verdict } from './probe.js';
import * as repo from './repo.js';
import { fairPick, type ShareKey } from './share.js';
import { queueWebhookEvents, webhooksHearing } from '../webhooks/access.js';

/** Targets leased per round, checked side by side (the host gate still holds each host to two at a time). */
const BATCH = 8;
/** How long a node holds a target: beyond its check's deadline, so no other node checks it meanwhile. */
const LEASE_MS = 5 * 60_000;
/** A check's deadline (a link's budget per round), in OUTBOUND_TIMEOUT_MS: every destination, hop and wait included. */
const BUDGET_HOPS = 6;
/** The longest a round waits for its checks: the slower ones go on in their slots while the next round starts. */
const ROUND_MS = 5000;
/** One account's share of a node's checks in flight; targets beyond it wait behind the others due. */
const PER_ACCOUNT = BATCH / 2;
/** A round leases this many times its free slots, to find other accounts' targets behind one account's many. */
const CANDIDATES = 4;
/** Pause between rounds that found too little due, with a third of it as jitter. */
const IDLE_MS = 15_000;
/** New targets are first checked within this much, spread so a large backlog does not start as one burst. */
const FIRST_CHECK_S = 600;
/** When checks are off (HEALTH_INTERVAL_S=0), targets are never due. */
const NEVER = '9999-12-31 23:59:59';

const at = (ms: number) => formatTimestamp(new Date(ms));

/** A change worth a link.health event: a first check that finds the link fine is none. */
const healthChanged = (before: string | undefined, now: string) =>
  (before ?? 'unknown') !== now && !((before ?? 'unknown') === 'unknown' && now === 'ok');

export interface CheckerOptions {
  /** Seconds between checks of one target, ±10 % jitter; 0: checked only on request. */
  intervalS: number;
  /** New targets are first checked within this many seconds (at most the interval). */
  firstCheckS?: number;
  /** The pause between rounds that found too little due (IDLE_MS; tests shorten it). */
  pauseMs?: number;
}

/**
 * The background link checker: each node leases due targets from health_checks, visits their
 * destinations through the outbound client and records what it found; a status change drops the target's
 * cached copies through its owner. Started by the app once it listens, closed with it.
 */
export class HealthChecker {
  private readonly client: OutboundClient;
  private readonly rounds: Rounds;
  private readonly inFlight: InFlight;
  private readonly budgetMs: number;
  /** Checks in flight on this node per account (fairPick). */
  private readonly running = new Map<ShareKey, number>();

  constructor(
    private readonly ctx: AppContext,
    private readonly options: CheckerOptions = { intervalS: ctx.config.HEALTH_INTERVAL_S },
  ) {
    this.client = new OutboundClient({
      userAgent: outboundUserAgent('LinkCheck', ctx.config.BASE_URL),
      timeoutMs: ctx.config.OUTBOUND_TIMEOUT_MS,
      allowLoopback: ctx.config.OUTBOUND_ALLOW_LOOPBACK,
    });
    this.rounds = new Rounds({
      round: () => this.round(),
      batch: BATCH,
      pauseMs: () => this.options.pauseMs ?? IDLE_MS,
      log: ctx.log,
      what: 'link health',
    });
    this.inFlight = new InFlight(BATCH, ctx.log, 'link health');
    this.budgetMs = BUDGET_HOPS * ctx.config.OUTBOUND_TIMEOUT_MS;
  }

  /** Starts the rounds (a no-op when checks are off or already started). */
  start(): void {
    if (this.options.intervalS > 0) this.rounds.start(1000);
  }

  /** Starts no more rounds and cuts the checks under way short (shutdown begins); close() then waits for them. */
  abort(): void {
    void this.rounds.close();
    this.client.close();
  }

  async close(): Promise<void> {
    const ended = this.rounds.close();
    this.client.close(); // cuts the round's requests short, so it ends soon
    await ended;
    await this.inFlight.drain();
  }

  /** One round: learn of new targets, lease due ones for the free slots and check them, waiting at most ROUND_MS. Answers how many it started. */
  async round(): Promise<number> {
    await this.learn();
    const free = this.inFlight.free;
    if (free === 0) return 0;
    const now = Date.now();
    const claimed = await repo.claimDue(this.ctx.db, at(now), at(now + Math.max(LEASE_MS, 2 * this.budgetMs)), free * CANDIDATES);
    const found = await this.destinationsOf(claimed);
    const candidates = claimed.map((c) => {
      const known = found.get(`${c.target_kind}:${c.target_id}`);
      return { ...c, known, share: known?.owner === undefined ? `${c.target_kind}:${c.target_id}` : `account:${known.owner}` };
    });
    const { picked, over, spare } = fairPick(candidates, free, this.running, PER_ACCOUNT);
    await repo.release(this.ctx.db, over, at(now)); // behind every target due before now: another account's come first
    await repo.release(this.ctx.db, spare);
    const checks = picked.map((c) => this.inFlight.start(() => this.counted(c.share, () => this.check(c.target_kind, c.target_id, 30_000, c))));
    await this.inFlight.settle(checks, ROUND_MS);
    return picked.length;
  }

  /** The destinations of leased targets, by `kind:id`, in one read per kind. */
  private async destinationsOf(claimed: repo.Claimed[]): Promise<Map<string, Destinations>> {
    const found = new Map<string, Destinations>();
    for (const kind of new Set(claimed.map((c) => c.target_kind))) {
      const ids = claimed.filter((c) => c.target_kind === kind).map((c) => c.target_id);
      const map = (await healthSources()[kind]?.destinations(this.ctx.db, ids)) ?? new Map<number, Destinations>();
      for (const [id, destinations] of map) found.set(`${kind}:${id}`, destinations);
    }
    return found;
  }

  /** Runs one check counted against its account's share while it runs. */
  private async counted<T>(share: ShareKey, work: () => Promise<T>): Promise<T> {
    this.running.set(share, (this.running.get(share) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.running.get(share) ?? 1) - 1;
      if (left > 0) this.running.set(share, left);
      else this.running.delete(share);
    }
  }

  /** Starts watching the targets created since the last round, each first due within FIRST_CHECK_S. */
  private async learn(): Promise<void> {
    for (const [kind, source] of Object.entries(healthSources()) as Array<[TargetKind, NonNullable<ReturnType<typeof healthSources>['link']>]>) {
      const newest = await repo.newestWatched(this.ctx.db, kind);
      const ids = await source.idsAfter(this.ctx.db, newest, 1000);
      const spread = Math.min(this.options.firstCheckS ?? FIRST_CHECK_S, this.options.intervalS);
      await repo.watch(
        this.ctx.db,
        kind,
        ids.map((id) => ({ id, due: this.options.intervalS ? at(Date.now() + Math.random() * spread * 1000) : NEVER })),
      );
    }
  }

  /**
   * Checks one target now (leased or asked for by its owner) within its budget and records it; undefined when it no
   * longer exists. `maxWaitMs` 0: a person waits, and a host in backoff is asked anyway; else a probe to it fails at once.
   * `leased` is what the round already read of it.
   */
  async check(kind: TargetKind, id: number, maxWaitMs: number, leased?: { known?: Destinations; resume_at: number }): Promise<Verdict | undefined> {
    const source = healthSources()[kind];
    const found = leased ? leased.known : (await source?.destinations(this.ctx.db, [id]))?.get(id);
    if (!source || !found) {
      await repo.forget(this.ctx.db, kind, [id]);
      return undefined;
    }
    if (!found.enabled) {
      await repo.park(this.ctx.db, kind, id, this.nextDue());
      return { status: 'unknown', code: null };
    }
    const terms = { maxWaitMs, deadline: Date.now() + this.budgetMs, failWhileBackingOff: maxWaitMs > 0 };
    const from = (leased?.resume_at ?? (await repo.resumeAt(this.ctx.db, kind, id))) % Math.max(1, found.urls.length);
    const probed = await probeAll(this.client, found.urls, terms, from);
    const wasBroken = probed.probed < found.urls.length ? await repo.brokenNumbers(this.ctx.db, kind, id) : new Set<number>();
    const { verdict, broken, whole } = carryOver(found.urls, from, probed, (url) => wasBroken.has(repo.destinationNumber(url)));
    // Requests cut short by a shutdown say nothing of the link: its lease runs out and another round checks it.
    if (this.rounds.closed) return undefined;
    const hearing = kind === 'link' && found.owner ? await webhooksHearing(this.ctx.db, found.owner, ['link.health']) : [];
    const tell = (trx: typeof this.ctx.db, before: string | undefined) =>
      healthChanged(before, verdict.status)
        ? queueWebhookEvents(trx, hearing, found.owner!, 'link.health', [
            { id, status: verdict.status, previous: before ?? 'unknown', code: verdict.code },
          ])
        : Promise.resolve();
    // A check its budget cut short is due again at once: the next round goes on from where it stopped.
    const resumeAt = whole ? 0 : (from + probed.probed) % Math.max(1, found.urls.length);
    const checked = { ...verdict, checkedAt: at(Date.now()), due: whole || this.options.intervalS === 0 ? this.nextDue() : at(Date.now()), resumeAt };
    const { before, moved } = await repo.record(this.ctx.db, kind, id, checked, { urls: found.urls, broken }, tell);
    // Only broken-ness changes what a target serves (a link's fallback, per destination): other changes leave the caches be.
    if ((before === 'broken') !== (verdict.status === 'broken') || moved) await source.changed(this.ctx, [id]);
    return verdict;
  }

  private nextDue(): string {
    if (this.options.intervalS === 0) return NEVER;
    return at(Date.now() + this.options.intervalS * 1000 * (0.9 + Math.random() * 0.2));
  }
}
