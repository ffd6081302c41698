/**
 * What we can tell about a visitor from a request, shared by targeting (redirect feature) and click
 * statistics. Every function here is pure and memoized where it runs once per visit.
 */
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { BoundedCache } from './bounded-cache.js';
export { countryOf, loadGeoDatabase } from './geo.js';
export { referrerHost, socialNetwork, DIRECT_REFERRER, SOCIAL_NETWORKS } from './referrer.js';
/** Label used when the user agent names no browser or operating system. */
export const UNKNOWN = 'Unknown';
// ua-parser spells some systems differently from what people write in a devicetarget or read in stats.
const OS_LABELS = { 'Mac OS': 'macOS', 'Chromium OS': 'Chrome OS' };
const NOT_DESKTOP_LINUX = new Set(['Android', 'Chrome OS', 'Tizen', 'webOS', 'KaiOS', 'Firefox OS', 'Sailfish']);
const agents = new BoundedCache(10_000);
// ua-parser reads only the first 500 characters; longer strings are parsed but not kept (bounded memory).
const MAX_CACHED_UA = 512;
/** Parses a user agent once; the same few strings recur, so results are memoized. */
export function describeAgent(userAgent) {
    const cached = agents.get(userAgent);
    if (cached)
        return cached;
    const agent = parseAgent(userAgent);
    if (userAgent.length <= MAX_CACHED_UA)
        agents.set(userAgent, agent);
    return agent;
}
function parseAgent(ua) {
    const result = new UAParser(ua).getResult();
    const os = result.os.name ? (OS_LABELS[result.os.name] ?? result.os.name) : UNKNOWN;
    const device = result.device.type ?? 'desktop';
    return {
        browser: result.browser.name || UNKNOWN,
        os,
        device,
        names: namesOf(ua, os, result.device.model ?? '', result.device.vendor ?? '', result.browser.name ?? '', device),
        bot: ua !== '' && isbot(ua),
    };
}
function namesOf(ua, os, model, vendor, browser, device) {
    const names = [];
    if (model === 'iPhone')
        names.push('iphone');
    if (model === 'iPad')
        names.push('ipad');
    if (model.startsWith('iPod'))
        names.push('ipod');
    if (os === 'iOS')
        names.push('ios');
    if (os === 'Android')
        names.push('android');
    if (os === 'Windows')
        names.push('windows');
    if (os === 'Windows Phone' || os === 'Windows Mobile')
        names.push('windows phone');
    if (os === 'macOS')
        names.push('macos', 'mac');
    if (os === 'Chrome OS')
        names.push('chromeos');
    if (/linux/i.test(ua) && !NOT_DESKTOP_LINUX.has(os) && device === 'desktop')
        names.push('linux');
    if (os === 'BlackBerry' || os === 'RIM Tablet OS' || vendor === 'BlackBerry')
        names.push('blackberry');
    if (vendor === 'Amazon' || vendor === 'Kindle' || browser === 'Silk' || browser === 'Kindle')
        names.push('kindle');
    names.push(device);
    return names;
}
/** Lower-case device names a link's devicetarget may use for this user agent (iphone, ipad, android, windows, macos, linux, …, plus mobile/tablet/desktop). */
export function deviceNames(userAgent) {
    return describeAgent(userAgent).names;
}
export function deviceKind(device) {
    return device === 'desktop' || device === 'mobile' || device === 'tablet' ? device : 'other';
}
/** Known crawlers, previewers and HTTP tools: redirected but never counted. An empty user agent is not a bot. */
export function isBot(userAgent) {
    return describeAgent(userAgent).bot;
}
//# sourceMappingURL=visitor.js.map