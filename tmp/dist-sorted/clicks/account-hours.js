/**
 * A batch's clicks per account and UTC hour: the account-wide series reads these few rows instead of
 * every target's buckets (docs/performance.md#account-series). Nested maps keep a target's share free of
 * allocation; rows come out in lock order (account, hour).
 */
export class AccountHours {
    byOwner = new Map();
    add(target, fresh) {
        this.bump(target.owner, target.hour, target.hourClicks, fresh.latest);
        if (target.earlier)
            for (const [hour, clicks] of target.earlier)
                this.bump(target.owner, hour, clicks, fresh.earlier?.get(hour) ?? 0);
    }
    rows() {
        const rows = [];
        for (const owner of [...this.byOwner.keys()].sort((a, b) => a - b)) {
            rows.push(...[...this.byOwner.get(owner).values()].sort((a, b) => a.hour - b.hour));
        }
        return rows;
    }
    bump(user_id, hour, clicks, uniques) {
        let hours = this.byOwner.get(user_id);
        if (!hours)
            this.byOwner.set(user_id, (hours = new Map()));
        const row = hours.get(hour);
        if (!row)
            hours.set(hour, { user_id, hour, clicks, uniques });
        else {
            row.clicks += clicks;
            row.uniques += uniques;
        }
    }
}
//# sourceMappingURL=account-hours.js.map