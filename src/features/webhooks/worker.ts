import type { AppContext } from '../../context.js';
import { InFlight, Rounds } from '../../infra/rounds.js';
import { OutboundClient, type Outcome } from '../../infra/outbound/client.js';
import { outboundUserAgent } from '../../infra/outbound/user-agent.js';
import { nowTimestamp } from '../../lib/time.js';
import * as deliveries from './delivery-repo.js';
import { stamp } from './outbox.js';
import * as repo from './repo.js';
import { signature } from './sign.js';

/** Deliveries leased per round, sent side by side (the host gate still holds each host to two at a time). */
const BATCH = 16;
/** The most sends of one account a node has under way: a silent receiver of one account never fills every slot. */
const PER_ACCOUNT = BATCH / 2;
/** How long a node holds a delivery: beyond its deadline, so no other node sends it meanwhile. */
const LEASE_MS = 2 * 60_000;
/** A delivery's deadline, every hop and wait included, in OUTBOUND_TIMEOUT_MS: past it the attempt failed (timeout). */
const DEADLINE_HOPS = 3;
/** The longest a round waits for its sends: the slower ones go on in their slots while the next round starts. */
const ROUND_MS = 2000;
/** The longest pause between retries, and between rounds that found nothing due. */
const MAX_DELAY_MS = 3600_000;
const IDLE_MS = 1000;

/** What became of one attempt, for the `redirectory_webhook_deliveries_total{result}` metric. */
export type DeliveryResult = 'delivered' | 'retry' | 'failed';

/** The next retry's delay: WEBHOOK_BACKOFF_MS, doubling per attempt, up to an hour, with ±20 % jitter. */
export function retryDelay(backoffMs: number, attempts: number): number {
  return Math.min(backoffMs * 2 ** Math.min(attempts - 1, 30), MAX_DELAY_MS) * (0.8 + Math.random() * 0.4);
}

const failureText = (outcome: Outcome) =>
  !outcome.ok
    ? outcome.failure === 'blocked'
      ? 'refused address (not a public one)'
      : `no answer (${outcome.failure})`
    : outcome.status >= 300 && outcome.status < 400
      ? `redirect (HTTP ${outcome.status}) not followed`
      : `HTTP ${outcome.status}`;

const parseStamp = (value: string) => Date.parse(`${value.replace(' ', 'T')}Z`);

/** "a day" at the default, else the span in words a person reads. */
function span(ms: number): string {
  if (ms === 24 * 3600_000) return 'a day';
  return ms % 3600_000 === 0 ? `${ms / 3600_000} h` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * The delivery worker: each node leases due deliveries (one node per delivery), POSTs them signed through
 * the outbound client (public addresses only, checked after DNS; redirects not followed) and records the
 * answer: a 2xx is delivered; anything else is retried with backoff until WEBHOOK_GIVE_UP_MS, and a webhook
 * failing that long is disabled with the reason. Started by the app once it listens, closed with it.
 */
export class WebhookWorker {
  private readonly client: OutboundClient;
  private readonly rounds: Rounds;
  private readonly inFlight: InFlight;
  private readonly deadlineMs: number;
  /** Sends under way per account, for PER_ACCOUNT. */
  private readonly sending = new Map<number, number>();

  /** `onResult` hears each attempt's result (the metrics counter). */
  constructor(
    private readonly ctx: AppContext,
    private readonly onResult: (result: DeliveryResult) => void = () => {},
  ) {
    this.client = new OutboundClient({
      userAgent: outboundUserAgent('Webhook', ctx.config.BASE_URL),
      timeoutMs: ctx.config.OUTBOUND_TIMEOUT_MS,
      allowLoopback: ctx.config.OUTBOUND_ALLOW_LOOPBACK,
    });
    this.rounds = new Rounds({ round: () => this.round(), batch: BATCH, pauseMs: () => this.idleMs(), log: ctx.log, what: 'webhook' });
    this.inFlight = new InFlight(BATCH, ctx.log, 'webhook');
    this.deadlineMs = DEADLINE_HOPS * ctx.config.OUTBOUND_TIMEOUT_MS;
  }

  start(): void {
    this.rounds.start(this.idleMs());
  }

  /** Starts no more rounds and cuts the sends under way short (shutdown begins); close() then waits for them. */
  abort(): void {
    void this.rounds.close();
    this.client.close();
  }

  async close(): Promise<void> {
    const ended = this.rounds.close();
    this.client.close(); // cuts the round's sends short, so it ends soon
    await ended;
    await this.inFlight.drain();
  }

  /** One round: lease due deliveries for the free slots and send them, waiting at most ROUND_MS. Answers how many it started. */
  async round(): Promise<number> {
    const now = Date.now();
    const free = this.inFlight.free;
    if (free === 0 || !(await deliveries.anyDue(this.ctx.db, stamp(now)))) return 0;
    const leaseUntil = stamp(now + Math.max(LEASE_MS, 2 * this.deadlineMs));
    const room = (userId: number) => PER_ACCOUNT - (this.sending.get(userId) ?? 0);
    const claimed = await deliveries.claimDue(this.ctx.db, stamp(now), leaseUntil, free, room);
    if (claimed.length === 0) return 0;
    const hooks = await repo.secretsOf(this.ctx.db, [...new Set(claimed.map((c) => c.webhook_id))]);
    const sends = claimed.map((c) => this.inFlight.start(() => this.counted(c.user_id, () => this.send(c, hooks.get(c.webhook_id)))));
    await this.inFlight.settle(sends, ROUND_MS);
    return claimed.length;
  }

  /** Runs one send counted against its account's PER_ACCOUNT while it is under way. */
  private async counted(userId: number, work: () => Promise<void>): Promise<void> {
    this.sending.set(userId, (this.sending.get(userId) ?? 0) + 1);
    try {
      await work();
    } finally {
      const left = (this.sending.get(userId) ?? 1) - 1;
      if (left > 0) this.sending.set(userId, left);
      else this.sending.delete(userId);
    }
  }

  private async send(delivery: deliveries.Claimed, hook: repo.WebhookRow | undefined): Promise<void> {
    if (!hook || Number(hook.active) !== 1) {
      await deliveries.recordAttempt(this.ctx.db, delivery.id, { status: 'failed', attempts: delivery.attempts, code: null, next: null });
      return;
    }
    const outcome = await this.client.request(hook.url, {
      method: 'POST',
      body: delivery.body,
      maxWaitMs: 0,
      // A redirect would carry the body and its signature to a host the owner never named: it fails the attempt.
      follow: false,
      deadline: Date.now() + this.deadlineMs,
      headers: {
        'content-type': 'application/json',
        'redirectory-signature': signature(hook.secret, delivery.body),
        'redirectory-event': delivery.event,
      },
    });
    // A send cut short by a shutdown says nothing of the receiver: its lease runs out and a node sends it again.
    if (this.rounds.closed) return;
    const attempts = delivery.attempts + 1;
    const code = outcome.ok ? outcome.status : null;
    if (outcome.ok && outcome.status >= 200 && outcome.status < 300) {
      await deliveries.recordAttempt(this.ctx.db, delivery.id, { status: 'delivered', attempts, code, next: null });
      if (hook.failing_since !== null) await repo.updateWebhook(this.ctx.db, hook.id, { failing_since: null });
      hook.failing_since = null;
      return this.report('delivered');
    }
    await this.failed(delivery, hook, attempts, outcome);
  }

  private async failed(delivery: deliveries.Claimed, hook: repo.WebhookRow, attempts: number, outcome: Outcome): Promise<void> {
    const { WEBHOOK_BACKOFF_MS: backoff, WEBHOOK_GIVE_UP_MS: giveUp } = this.ctx.config;
    const now = Date.now();
    const code = outcome.ok ? outcome.status : null;
    // A delivery is retried for WEBHOOK_GIVE_UP_MS from its first failure (a resend starts afresh).
    const retryFrom = delivery.retry_from ?? stamp(now);
    const deadline = parseStamp(retryFrom) + giveUp;
    const next = Math.min(now + retryDelay(backoff, attempts), deadline);
    const over = now >= deadline;
    await deliveries.recordAttempt(this.ctx.db, delivery.id, {
      status: over ? 'failed' : 'pending',
      attempts,
      code,
      next: over ? null : stamp(next),
      retryFrom,
    });
    this.report(over ? 'failed' : 'retry');
    const since = hook.failing_since ?? stamp(now);
    if (hook.failing_since === null) {
      hook.failing_since = since;
      await repo.updateWebhook(this.ctx.db, hook.id, { failing_since: since });
    }
    // A delivery given up on after failing since the webhook began failing is a day of failure too, even when
    // the stored stamps' whole seconds put its last try a moment short of WEBHOOK_GIVE_UP_MS after `since`.
    const failedThroughout = over && parseStamp(since) <= parseStamp(retryFrom);
    if ((now - parseStamp(since) < giveUp && !failedThroughout) || Number(hook.active) !== 1) return;
    hook.active = 0;
    const reason = `Disabled on ${nowTimestamp()} after failing for ${span(giveUp)}: ${failureText(outcome)}`;
    await this.ctx.db.transaction().execute(async (trx) => {
      await repo.updateWebhook(trx, hook.id, { active: 0, reason });
      await deliveries.failPending(trx, hook.id);
    });
    this.ctx.log.warn({ webhook: hook.id, reason }, 'webhook disabled');
  }

  private report(result: DeliveryResult): void {
    this.onResult(result);
  }

  /** Every second, or every WEBHOOK_BACKOFF_MS when that is shorter (tests); the rounds add jitter. */
  private idleMs(): number {
    return Math.min(IDLE_MS, this.ctx.config.WEBHOOK_BACKOFF_MS);
  }
}
