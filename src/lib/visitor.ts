/**
 * What we can tell about a visitor from a request, shared by targeting (redirect feature) and click
 * statistics. Every function here is pure and memoized where it runs once per visit (countries: infra/geo.ts).
 */
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { BoundedCache } from './bounded-cache.js';

export { referrerHost, socialNetwork, DIRECT_REFERRER, SOCIAL_NETWORKS } from './referrer.js';

/** Label used when the user agent names no browser or operating system. */
export const UNKNOWN = 'Unknown';

export type DeviceType = 'desktop' | 'mobile' | 'tablet' | 'console' | 'smarttv' | 'wearable' | 'embedded' | 'xr';

export interface Agent {
  /** e.g. "Chrome", "Mobile Safari", "Firefox", "Edge"; UNKNOWN when unrecognised. */
  browser: string;
  /** e.g. "Windows", "macOS", "iOS", "Android", "Linux", "Chrome OS"; UNKNOWN when unrecognised. */
  os: string;
  device: DeviceType;
  /** Lower-case names a devicetarget may use; see deviceNames. */
  names: string[];
  /** Lower-case names a routing rule's `browser` / `os` condition matches (`firefox`, and `safari` for "Mobile Safari"). */
  browserKeys: string[];
  osKey: string;
  /** Known crawlers and tools. An empty user agent is not a bot: privacy tools and some apps strip it. */
  bot: boolean;
}

// ua-parser spells some systems differently from what people write in a devicetarget or read in stats.
const OS_LABELS: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'Chrome OS' };
const NOT_DESKTOP_LINUX = new Set(['Android', 'Chrome OS', 'Tizen', 'webOS', 'KaiOS', 'Firefox OS', 'Sailfish']);

const agents = new BoundedCache<string, Agent>(10_000);
// ua-parser reads only the first 500 characters; longer strings are parsed but not kept (bounded memory).
const MAX_CACHED_UA = 512;

/** Parses a user agent once; the same few strings recur, so results are memoized. */
export function describeAgent(userAgent: string): Agent {
  const cached = agents.get(userAgent);
  if (cached) return cached;
  const agent = parseAgent(userAgent);
  if (userAgent.length <= MAX_CACHED_UA) agents.set(userAgent, agent);
  return agent;
}

function parseAgent(ua: string): Agent {
  const result = new UAParser(ua).getResult();
  const os = result.os.name ? (OS_LABELS[result.os.name] ?? result.os.name) : UNKNOWN;
  const device = (result.device.type as DeviceType | undefined) ?? 'desktop';
  return {
    browser: result.browser.name || UNKNOWN,
    os,
    device,
    names: namesOf(ua, os, result.device.model ?? '', result.device.vendor ?? '', result.browser.name ?? '', device),
    browserKeys: browserKeys(result.browser.name || UNKNOWN),
    osKey: os.toLowerCase(),
    bot: ua !== '' && isbot(ua),
  };
}

function browserKeys(browser: string): string[] {
  const key = browser.toLowerCase();
  return key.startsWith('mobile ') ? [key, key.slice(7)] : [key];
}

function namesOf(ua: string, os: string, model: string, vendor: string, browser: string, device: DeviceType): string[] {
  const names: string[] = [];
  if (model === 'iPhone') names.push('iphone');
  if (model === 'iPad') names.push('ipad');
  if (model.startsWith('iPod')) names.push('ipod');
  if (os === 'iOS') names.push('ios');
  if (os === 'Android') names.push('android');
  if (os === 'Windows') names.push('windows');
  if (os === 'Windows Phone' || os === 'Windows Mobile') names.push('windows phone');
  if (os === 'macOS') names.push('macos', 'mac');
  if (os === 'Chrome OS') names.push('chromeos');
  if (/linux/i.test(ua) && !NOT_DESKTOP_LINUX.has(os) && device === 'desktop') names.push('linux');
  if (os === 'BlackBerry' || os === 'RIM Tablet OS' || vendor === 'BlackBerry') names.push('blackberry');
  if (vendor === 'Amazon' || vendor === 'Kindle' || browser === 'Silk' || browser === 'Kindle') names.push('kindle');
  names.push(device);
  return names;
}

/** Lower-case device names a link's devicetarget may use for this user agent (iphone, ipad, android, windows, macos, linux, …, plus mobile/tablet/desktop). */
export function deviceNames(userAgent: string): string[] {
  return describeAgent(userAgent).names;
}

/** The device kinds of the visit log: the common three, and `other` for consoles, TVs, watches and the like. */
export type DeviceKind = 'desktop' | 'mobile' | 'tablet' | 'other';

export function deviceKind(device: DeviceType): DeviceKind {
  return device === 'desktop' || device === 'mobile' || device === 'tablet' ? device : 'other';
}

/** Known crawlers, previewers and HTTP tools: redirected but never counted. An empty user agent is not a bot. */
export function isBot(userAgent: string): boolean {
  return describeAgent(userAgent).bot;
}
