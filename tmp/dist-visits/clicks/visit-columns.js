export const FIELDS = 4;
/** The rule of a visit served the target's own destination (a QR code's, a campaign's, a link's without a matching target). */
export const DEFAULT_RULE = 'default';
export const KINDS = ['link', 'qr'];
const INITIAL = 1_024;
/** Appends visits up to `capacity`, then seals them into one VisitBatch. */
export class VisitBuffer {
    kinds = new Uint8Array(INITIAL);
    ids = new Float64Array(INITIAL);
    owners = new Float64Array(INITIAL);
    hours = new Uint32Array(INITIAL);
    seconds = new Uint32Array(INITIAL);
    fields = new Uint32Array(INITIAL * FIELDS);
    strings = [];
    index = new Map();
    length = 0;
    /** `ms` is when it was served; `rule` names the target rule that chose the destination. */
    append(kind, id, owner, visit, ms, rule) {
        if (this.length === this.kinds.length)
            this.grow();
        const at = this.length++;
        this.kinds[at] = kind === 'qr' ? 1 : 0;
        this.ids[at] = id;
        this.owners[at] = owner;
        this.hours[at] = Math.floor(ms / HOUR_MS);
        this.seconds[at] = Math.floor(ms / 1000);
        this.fields[at * FIELDS] = this.intern(visit.ip);
        this.fields[at * FIELDS + 1] = this.intern(visit.userAgent);
        this.fields[at * FIELDS + 2] = this.intern(visit.referer);
        this.fields[at * FIELDS + 3] = this.intern(rule);
    }
    /** The visits so far as a batch of their own; the buffer starts over empty. */
    seal() {
        const n = this.length;
        const batch = { kinds: this.kinds.slice(0, n), ids: this.ids.slice(0, n), owners: this.owners.slice(0, n), hours: this.hours.slice(0, n),
            seconds: this.seconds.slice(0, n), fields: this.fields.slice(0, n * FIELDS), strings: this.strings };
        this.strings = [];
        this.index = new Map();
        this.length = 0;
        return batch;
    }
    intern(value) {
        let at = this.index.get(value);
        if (at === undefined)
            this.index.set(value, (at = this.strings.push(value) - 1));
        return at;
    }
    grow() {
        const size = this.kinds.length * 2;
        const kinds = new Uint8Array(size);
        kinds.set(this.kinds);
        const ids = new Float64Array(size);
        ids.set(this.ids);
        const owners = new Float64Array(size);
        owners.set(this.owners);
        const hours = new Uint32Array(size);
        hours.set(this.hours);
        const seconds = new Uint32Array(size);
        seconds.set(this.seconds);
        const fields = new Uint32Array(size * FIELDS);
        fields.set(this.fields);
        [this.kinds, this.ids, this.owners, this.hours, this.seconds, this.fields] = [kinds, ids, owners, hours, seconds, fields];
    }
}
export const batchLength = (batch) => batch.kinds.length;
export const HOUR_MS = 3_600_000;
/** The UTC hour of a moment, in hours since 1970: the key of the click series' hourly buckets. */
export const hourOf = (ms) => Math.floor(ms / HOUR_MS);
//# sourceMappingURL=visit-columns.js.map