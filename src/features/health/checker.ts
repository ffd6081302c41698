import type { AppContext } from '../../context.js';
import type { TargetKind } from '../../db/types.js';
import { Rounds } from '../../infra/rounds.js';
import { OutboundClient } from '../../infra/outbound/client.js';
import { outboundUserAgent } from '../../infra/outbound/user-agent.js';
import { formatTimestamp } from '../../lib/time.js';
import { healthSources } from './ports.js';
import { probeAll, type Verdict } from './probe.js';
import * as repo from './repo.js';
import { queueWebhookEvents, webhooksHearing } from '../webhooks/access.js';

/** Targets leased per round, checked side by side (the host gate still holds each host to two at a time). */
const BATCH = 8;
/** How long a node holds a target: beyond the longest check (two requests, each up to six hops). */
const LEASE_MS = 5 * 60_000;
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
}

/**
 * The background link checker: each node leases due targets from health_checks, visits their
 * destinations through the outbound client and records what it found; a status change drops the target's
 * cached copies through its owner. Started by the app once it listens, closed with it.
 */
export class HealthChecker {
  private readonly client: OutboundClient;
  private readonly rounds: Rounds;

  constructor(
    private readonly ctx: AppContext,
    private readonly options: CheckerOptions = { intervalS: ctx.config.HEALTH_INTERVAL_S },
  ) {
    this.client = new OutboundClient({
      userAgent: outboundUserAgent('LinkCheck', ctx.config.BASE_URL),
      timeoutMs: ctx.config.OUTBOUND_TIMEOUT_MS,
      allowLoopback: ctx.config.OUTBOUND_ALLOW_LOOPBACK,
    });
    this.rounds = new Rounds({ round: () => this.round(), batch: BATCH, pauseMs: () => IDLE_MS, log: ctx.log, what: 'link health' });
  }

  /** Starts the rounds (a no-op when checks are off or already started). */
  start(): void {
    if (this.options.intervalS > 0) this.rounds.start(1000);
  }

  async close(): Promise<void> {
    const ended = this.rounds.close();
    this.client.close(); // cuts the round's requests short, so it ends soon
    await ended;
  }

  /** One round: learn of new targets, lease the due ones and check them. Answers how many were checked. */
  async round(): Promise<number> {
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
    const now = Date.now();
    const claimed = await repo.claimDue(this.ctx.db, at(now), at(now + LEASE_MS), BATCH);
    await Promise.all(claimed.map((c) => this.check(c.target_kind, c.target_id, 30_000)));
    return claimed.length;
  }

  /** Checks one target now (leased or asked for by its owner) and records it; undefined when it no longer exists. */
  async check(kind: TargetKind, id: number, maxWaitMs: number): Promise<Verdict | undefined> {
    const source = healthSources()[kind];
    const found = (await source?.destinations(this.ctx.db, [id]))?.get(id);
    if (!source || !found) {
      await repo.forget(this.ctx.db, kind, [id]);
      return undefined;
    }
    if (!found.enabled) {
      await repo.park(this.ctx.db, kind, id, this.nextDue());
      return { status: 'unknown', code: null };
    }
    const { verdict, broken } = await probeAll(this.client, found.urls, maxWaitMs);
    // Requests cut short by a shutdown say nothing of the link: its lease runs out and another round checks it.
    if (this.rounds.closed) return undefined;
    const hearing = kind === 'link' && found.owner ? await webhooksHearing(this.ctx.db, found.owner, ['link.health']) : [];
    const tell = (trx: typeof this.ctx.db, before: string | undefined) =>
      healthChanged(before, verdict.status)
        ? queueWebhookEvents(trx, hearing, found.owner!, 'link.health', [
            { id, status: verdict.status, previous: before ?? 'unknown', code: verdict.code },
          ])
        : Promise.resolve();
    const checked = { ...verdict, checkedAt: at(Date.now()), due: this.nextDue() };
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
