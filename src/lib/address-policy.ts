import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which resolved addresses an outbound request (link checks, webhooks) may connect to: public unicast only.
 * Private, loopback, link-local (and the cloud metadata address in it), unique-local, CGNAT, multicast,
 * reserved and unspecified ranges are refused, in IPv4 and IPv6, and IPv6 forms that embed an IPv4
 * address (mapped, SIIT, compatible, NAT64, 6to4) are judged by the IPv4 address they carry; local-use NAT64
 * (64:ff9b:1::/48), whose IPv4 may sit anywhere, is refused whole.
 */
export type AddressClass = 'public' | 'loopback' | 'private';

/** [first octets as a number, prefix length] of every refused IPv4 range but loopback. */
const PRIVATE_V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT (Alibaba's metadata address 100.100.100.200 too)
  ['169.254.0.0', 16], // link-local, metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inV4(n: number, [base, bits]: [string, number]): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(v4Number(base) / size);
}

function classifyV4(address: string): AddressClass {
  const n = v4Number(address);
  if (inV4(n, ['127.0.0.0', 8])) return 'loopback';
  return PRIVATE_V4.some((range) => inV4(n, range)) ? 'private' : 'public';
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part counts as two). */
function groupsOf(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) =>
    text
      ? text.split(':').flatMap((g) => {
          if (!g.includes('.')) return [Number.parseInt(g, 16)];
          const n = v4Number(g);
          return [Math.floor(n / 65536), n % 65536];
        })
      : [];
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

function classifyV6(address: string): AddressClass {
  const g = groupsOf(address);
  const zeroUntil = (i: number) => g.slice(0, i).every((x) => x === 0);
  if (zeroUntil(7) && g[7] === 1) return 'loopback';
  if (zeroUntil(8)) return 'private'; // unspecified
  if (zeroUntil(5) && g[5] === 0xffff) return classifyV4(v4Of(g[6]!, g[7]!)); // IPv4-mapped
  if (zeroUntil(4) && g[4] === 0xffff && g[5] === 0) return classifyV4(v4Of(g[6]!, g[7]!)); // SIIT ::ffff:0:0/96 (RFC 7915)
  if (zeroUntil(6)) return 'private'; // IPv4-compatible, deprecated and never routed
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(v4Of(g[6]!, g[7]!)); // NAT64
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'private'; // local-use NAT64 /48: where its IPv4 sits is the network's choice
  if (g[0] === 0x2002) return classifyV4(v4Of(g[1]!, g[2]!)); // 6to4
  const first = g[0]!;
  if ((first & 0xfe00) === 0xfc00) return 'private'; // unique-local fc00::/7 (AWS metadata fd00:ec2::254)
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return 'private'; // link-local, old site-local
  if ((first & 0xff00) === 0xff00) return 'private'; // multicast
  if (first === 0x2001 && g[1] === 0x0db8) return 'private'; // documentation
  if (first === 0x3fff && g[1]! < 0x1000) return 'private'; // documentation 3fff::/20 (RFC 9637)
  if (first === 0x5f00) return 'private'; // SRv6 segment identifiers 5f00::/16 (RFC 9602)
  if (first === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'private'; // discard-only
  if (first === 0x2001 && g[1]! < 0x0200) return 'private'; // Teredo and other IETF special purpose
  return 'public';
}

/** The class of an IP address (no zone id); anything that is not an address is 'private', so it is never connected to. */
export function classifyAddress(ip: string): AddressClass {
  const address = ip.trim().toLowerCase().split('%')[0]!;
  if (isIPv4(address)) return classifyV4(address);
  if (isIPv6(address)) return classifyV6(address);
  return 'private';
}

/** Whether an outbound request may connect to the address; `allowLoopback` (tests only) admits loopback, never the rest. */
export function mayConnect(ip: string, allowLoopback: boolean): boolean {
  const kind = classifyAddress(ip);
  return kind === 'public' || (kind === 'loopback' && allowLoopback);
}
