import type { AccountHoursTable } from '../db/types.js';
import type { FreshVisitors } from './batch-rows.js';
import type { TargetBatch } from './derive.js';

/**
 * A batch's clicks per account and UTC hour: the account-wide series reads these few rows instead of
 * every target's buckets (docs/performance.md#account-series). Nested maps keep a target's share free of
 * allocation; rows come out in lock order (account, hour).
 */
export class AccountHours {
  private readonly byOwner = new Map<number, Map<number, AccountHoursTable>>();

  add(target: TargetBatch, fresh: FreshVisitors): void {
    if (target.kind.startsWith('variant:')) return; // a split variant's clicks are its link's, counted once
    this.bump(target.owner, target.hour, target.hourClicks, fresh.latest);
    if (target.earlier) for (const [hour, clicks] of target.earlier) this.bump(target.owner, hour, clicks, fresh.earlier?.get(hour) ?? 0);
  }

  rows(): AccountHoursTable[] {
    const rows: AccountHoursTable[] = [];
    for (const owner of [...this.byOwner.keys()].sort((a, b) => a - b)) {
      rows.push(...[...this.byOwner.get(owner)!.values()].sort((a, b) => a.hour - b.hour));
    }
    return rows;
  }

  private bump(user_id: number, hour: number, clicks: number, uniques: number): void {
    let hours = this.byOwner.get(user_id);
    if (!hours) this.byOwner.set(user_id, (hours = new Map<number, AccountHoursTable>()));
    const row = hours.get(hour);
    if (!row) hours.set(hour, { user_id, hour, clicks, uniques });
    else {
      row.clicks += clicks;
      row.uniques += uniques;
    }
  }
}
