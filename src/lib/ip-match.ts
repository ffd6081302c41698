import { isIPv4, isIPv6 } from 'node:net';
import { memoize } from './bounded-cache.js';

/**
 * Addresses as numbers for routing rules' `ip` conditions: a network is compiled once, a visitor's address
 * parsed once per distinct address (memoized), and a test is a few integer comparisons. Node's BlockList
 * took microseconds per check, more than the rest of a redirect.
 */
export interface Address {
  v6: boolean;
  /** Four 32-bit words, big-endian; an IPv4 address (or IPv4-mapped IPv6) fills words[3] only, v6 false. */
  words: Uint32Array;
}
export interface Network extends Address {
  prefix: number;
}

export function parseAddress(text: string): Address | null {
  const ip = text.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (isIPv4(mapped ? mapped[1]! : ip)) {
    const [a, b, c, d] = (mapped ? mapped[1]! : ip).split('.').map(Number) as [number, number, number, number];
    return { v6: false, words: Uint32Array.of(0, 0, 0, ((a << 24) | (b << 16) | (c << 8) | d) >>> 0) };
  }
  if (!isIPv6(ip)) return null;
  const groups = expand(ip.split('%')[0]!);
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = ((groups[2 * i]! << 16) | groups[2 * i + 1]!) >>> 0;
  return { v6: true, words };
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part counts as two). */
function expand(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text ? text.split(':').flatMap(groupsOf) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

function groupsOf(group: string): number[] {
  if (!group.includes('.')) return [Number.parseInt(group, 16)];
  const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
  return [(a << 8) | b, (c << 8) | d];
}

/** `203.0.113.0/24`, `2001:db8::/32` or a single address; null when not one. */
export function parseNetwork(text: string): Network | null {
  const [address = '', bits, extra] = text.trim().split('/');
  const parsed = extra === undefined ? parseAddress(address) : null;
  if (!parsed || address.includes('%')) return null;
  const max = parsed.v6 ? 128 : 32;
  const prefix = bits === undefined ? max : /^\d{1,3}$/.test(bits) ? Number(bits) : -1;
  if (prefix < 0 || prefix > max) return null;
  return { ...parsed, prefix: parsed.v6 ? prefix : prefix + 96 };
}

/** Visitors' addresses recur (one client sends many requests): each distinct one is parsed once. */
export const visitorAddress = memoize(parseAddress, 10_000, 64);

export function inNetwork(network: Network, address: Address | null): boolean {
  if (address === null || address.v6 !== network.v6) return false;
  let bits = network.prefix;
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 32) {
    const mask = bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
    if (((address.words[i]! ^ network.words[i]!) & mask) >>> 0 !== 0) return false;
  }
  return true;
}

/**
 * `inNetwork` as a compiled test: an IPv4 network is one mask and compare of the last word (a routing rule's
 * `ip` condition runs on every visit of its link).
 */
export function networkTest(network: Network): (address: Address | null) => boolean {
  if (network.v6) return (address) => inNetwork(network, address);
  const bits = network.prefix - 96;
  const mask = bits === 0 ? 0 : -1 << (32 - bits); // `<< 32` would shift by 0
  const base = network.words[3]! & mask;
  return (address) => address !== null && !address.v6 && (address.words[3]! & mask) === base;
}
