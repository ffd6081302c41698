import { isIPv4, isIPv6 } from 'node:net';

/**
 * An address cut to its network, for the account activity log: IPv4 to its /24, IPv6 to its /48 (an IPv4-mapped
 * IPv6 address counts as IPv4). Enough to tell "my office" from "another country", not to name one machine.
 * Anything that is not an address gives "".
 */
export function ipPrefix(ip: string): string {
  const address = ip.trim().toLowerCase().split('%')[0]!;
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+)\.\d+$/.exec(address);
  if (v4 && isIPv4(address.replace(/^::ffff:/, ''))) return `${v4[1]}.0/24`;
  if (!isIPv6(address)) return '';
  const groups = expandIpv6(address);
  const head = groups.slice(0, 3).map((group) => Number.parseInt(group, 16).toString(16));
  while (head.length > 0 && head[head.length - 1] === '0') head.pop();
  return `${head.join(':')}::/48`;
}

/** The eight groups of a valid IPv6 address (a trailing dotted IPv4 part counts as two). */
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text ? text.split(':').flatMap(dottedToGroups) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

function dottedToGroups(group: string): string[] {
  if (!group.includes('.')) return [group];
  const [a, b, c, d] = group.split('.').map(Number) as [number, number, number, number];
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}
