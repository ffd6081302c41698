/**
 * Whom the throttle counts: an IPv4 address, or the /64 network of an IPv6 address — one subscriber gets a
 * whole /64 and could otherwise try five passwords from each of its addresses.
 */
export function throttleClient(ip: string): string {
  const address = ip.trim().toLowerCase().split('%')[0]!;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(8 - left.length - right.length, 0)).fill('0'), ...right];
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16));
  return prefix.length === 4 && prefix.every((n) => n >= 0 && n <= 0xffff) ? `${prefix.map((n) => n.toString(16)).join(':')}::/64` : address;
}
