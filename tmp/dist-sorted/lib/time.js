/** Timestamps travel as `YYYY-MM-DD HH:MM:SS` in UTC, the spec's format; stored the same way so they sort. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
export function formatTimestamp(date) {
    return date.toISOString().slice(0, 19).replace('T', ' ');
}
export function nowTimestamp() {
    return formatTimestamp(new Date());
}
/** Date part only, for channel items. */
export function dateOnly(timestamp) {
    return timestamp.slice(0, 10);
}
/** Parses the spec's timestamp format strictly; returns null when malformed or not a real date. */
export function parseTimestamp(value) {
    const m = TIMESTAMP.exec(value);
    if (!m)
        return null;
    const date = new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
    if (Number.isNaN(date.getTime()) || formatTimestamp(date) !== value)
        return null;
    return date;
}
//# sourceMappingURL=time.js.map