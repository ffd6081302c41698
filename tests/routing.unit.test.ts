import { describe, expect, it } from 'vitest';
import { inNetwork, networkTest, parseAddress, parseNetwork } from '../src/lib/ip-match.js';
import { variant, visitorHash, type Split } from '../src/features/redirect/decide/routing.js';

describe('ip networks', () => {
  // The compiled test the redirect runs must answer as inNetwork does.
  const inside = (network: string, ip: string) => {
    const answer = inNetwork(parseNetwork(network)!, parseAddress(ip));
    expect(networkTest(parseNetwork(network)!)(parseAddress(ip))).toBe(answer);
    return answer;
  };

  it('matches IPv4 networks, single addresses and IPv4-mapped IPv6 visitors', () => {
    expect(inside('203.0.113.0/24', '203.0.113.255')).toBe(true);
    expect(inside('203.0.113.0/24', '203.0.114.0')).toBe(false);
    expect(inside('10.0.0.0/8', '::ffff:10.9.8.7')).toBe(true);
    expect(inside('0.0.0.0/0', '1.2.3.4')).toBe(true);
    expect(inside('198.51.100.7', '198.51.100.7')).toBe(true);
    expect(inside('198.51.100.7', '198.51.100.6')).toBe(false);
    expect(inside('128.0.0.0/1', '200.1.2.3')).toBe(true);
    expect(inside('128.0.0.0/1', '127.255.255.255')).toBe(false);
    expect(inside('255.255.255.255/32', '255.255.255.255')).toBe(true);
  });

  it('matches IPv6 networks at any prefix, and never across families', () => {
    expect(inside('2001:db8::/32', '2001:db8:ffff::1')).toBe(true);
    expect(inside('2001:db8::/33', '2001:db8:8000::1')).toBe(false);
    expect(inside('2001:db8:0:0:0:0:0:1/128', '2001:db8::1')).toBe(true);
    expect(inside('::/0', '2001:db8::1')).toBe(true);
    expect(inside('::/0', '1.2.3.4')).toBe(false);
    expect(inside('2001:db8::/32', 'not an address')).toBe(false);
  });

  it('refuses what is no network', () => {
    for (const bad of ['10.0.0.0/33', '2001:db8::/129', '10.0.0/8', '1.2.3.4/8/1', 'fe80::1%eth0', '']) expect(parseNetwork(bad)).toBeNull();
  });
});

describe('split choice', () => {
  // Destinations 2, 3 and 4 of their link: a variant is named by its destination's index.
  const split: Split = { bounds: [50, 80, 100], first: 2 };
  const names = new Map([
    [2, 'a'],
    [3, 'b'],
    [4, 'c'],
  ]);

  it('is stable for a visitor and ignores how an IPv4 address is written', () => {
    const ua = 'Mozilla/5.0 test';
    expect(visitorHash('192.0.2.1', ua)).toBe(visitorHash('::ffff:192.0.2.1', ua));
    expect(variant(split, { ip: '192.0.2.1', userAgent: ua })).toBe(variant(split, { ip: '192.0.2.1', userAgent: ua }));
  });

  it('follows the weights over 100,000 seeded visitors', () => {
    const counts = new Map<string, number>();
    for (let n = 0; n < 100_000; n++) {
      const v = names.get(variant(split, { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, userAgent: `agent ${n % 13}` }))!;
      counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    for (const [destination, p] of [
      ['a', 0.5],
      ['b', 0.3],
      ['c', 0.2],
    ] as const) {
      expect(Math.abs(counts.get(destination)! - 100_000 * p)).toBeLessThan(5 * Math.sqrt(100_000 * p * (1 - p)));
    }
  });
});
