/**
 * The one spelling of a host that Redirectory stores, compares and caches, shared by the domain API,
 * the configured default host and the public side's Host header: lower-case ASCII (IDN as punycode),
 * IPv4 and IPv6 in their canonical form, without the final dot, and without the standard ports 80 and
 * 443 (behind a proxy a node cannot tell which scheme a visitor used, and clients omit either port).
 */
const STANDARD_PORTS = new Set(['80', '443']);
/** Anything that would make `http://${value}` more than a host and port: userinfo, path, query, escapes, spaces. */
const NOT_A_HOST = /[\s/\\?#@%\u0000-\u001f\u007f]/u;
/** Longer than a DNS name (253) and a port can be: no host of ours. */
const MAX_HOST_HEADER = 300;
/** The canonical host (and port, when not standard) of a parsed http(s) URL; null when its name has an empty label. */
export function hostKey(url) {
    let name = url.hostname;
    if (name.endsWith('.'))
        name = name.slice(0, -1);
    if (!name || name.startsWith('.') || name.endsWith('.') || name.includes('..'))
        return null;
    return url.port && !STANDARD_PORTS.has(url.port) ? `${name}:${url.port}` : name;
}
/** A Host header (or a bare `host[:port]`) in the canonical spelling; null when it is not a host at all. */
export function normalizeHost(value) {
    if (!value || value.length > MAX_HOST_HEADER || NOT_A_HOST.test(value))
        return null;
    const text = `http://${value}`;
    return URL.canParse(text) ? hostKey(new URL(text)) : null;
}
/** True for 80 with https: and 443 with http:, a standard port the scheme does not use (its own default the URL parser already dropped). */
export function crossStandardPort(url) {
    return STANDARD_PORTS.has(url.port);
}
//# sourceMappingURL=hosts.js.map