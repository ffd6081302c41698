import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { countryOf, loadGeoDatabase } from '../src/infra/geo.js';
import { describeAgent, deviceNames, isBot, referrerHost, socialNetwork } from '../src/lib/visitor.js';
import { UA } from './helpers/user-agents.js';

describe('deviceNames', () => {
  it.each([
    ['iphone', ['iphone', 'ios', 'mobile'], ['ipad', 'android', 'desktop']],
    ['ipad', ['ipad', 'ios', 'tablet'], ['iphone', 'mobile']],
    ['ipod', ['ipod', 'ios', 'mobile'], ['iphone']],
    ['android', ['android', 'mobile'], ['linux', 'tablet', 'desktop']],
    ['androidTablet', ['android', 'tablet'], ['mobile', 'linux']],
    ['windowsChrome', ['windows', 'desktop'], ['mobile', 'windows phone']],
    ['macSafari', ['macos', 'mac', 'desktop'], ['ios', 'iphone']],
    ['linuxFirefox', ['linux', 'desktop'], ['android']],
    ['chromebook', ['chromeos', 'desktop'], ['linux']],
    ['blackberry', ['blackberry', 'mobile'], ['desktop']],
    ['windowsPhone', ['windows phone', 'mobile'], ['windows', 'iphone', 'android']],
    ['kindle', ['kindle', 'android', 'tablet'], ['mobile']],
  ] as const)('%s', (name, present, absent) => {
    const names = deviceNames(UA[name]);
    for (const n of present) expect(names).toContain(n);
    for (const n of absent) expect(names).not.toContain(n);
  });

  it('gives the same answer from the memo', () => {
    expect(deviceNames(UA.iphone)).toBe(deviceNames(UA.iphone));
  });
});

describe('describeAgent', () => {
  it.each([
    ['iphone', 'Mobile Safari', 'iOS', 'mobile'],
    ['android', 'Chrome', 'Android', 'mobile'],
    ['windowsChrome', 'Chrome', 'Windows', 'desktop'],
    ['windowsEdge', 'Edge', 'Windows', 'desktop'],
    ['windowsFirefox', 'Firefox', 'Windows', 'desktop'],
    ['macSafari', 'Safari', 'macOS', 'desktop'],
    ['linuxFirefox', 'Firefox', 'Linux', 'desktop'],
    ['ipad', 'Mobile Safari', 'iOS', 'tablet'],
  ] as const)('%s → %s on %s (%s)', (name, browser, os, device) => {
    expect(describeAgent(UA[name])).toMatchObject({ browser, os, device, bot: false });
  });

  it('labels what it cannot recognise as Unknown', () => {
    expect(describeAgent('')).toMatchObject({ browser: 'Unknown', os: 'Unknown', device: 'desktop' });
  });
});

describe('isBot', () => {
  it('flags crawlers and link previewers', () => {
    expect(isBot(UA.googlebot)).toBe(true);
    expect(isBot(UA.facebookBot)).toBe(true);
    expect(isBot('curl/8.4.0')).toBe(true);
  });

  it('counts browsers and an empty user agent as people', () => {
    for (const ua of [UA.iphone, UA.android, UA.windowsEdge, UA.macSafari, '']) expect(isBot(ua)).toBe(false);
  });
});

describe('countryOf', () => {
  it.each([
    ['8.8.8.8', 'US', 'United States'],
    ['81.2.69.142', 'GB', 'United Kingdom'],
    ['5.9.0.1', 'DE', 'Germany'],
    ['2001:4860:4860::8888', 'US', 'United States'],
    ['::ffff:8.8.8.8', 'US', 'United States'],
    ['::FFFF:81.2.69.142', 'GB', 'United Kingdom'],
  ])('%s → %s', (ip, code, name) => {
    expect(countryOf(ip)).toEqual({ code, name });
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.1.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:192.168.1.1',
    '::ffff:127.0.0.1',
    '',
    'not-an-ip',
    '999.1.1.1',
  ])('%s → null', (ip) => {
    expect(countryOf(ip)).toBeNull();
  });

  it('uses a configured database instead of the bundled one', () => {
    const file = (name: string) => createRequire(import.meta.url).resolve(`@ip-location-db/geo-whois-asn-country-mmdb/${name}`);
    try {
      loadGeoDatabase(file('geo-whois-asn-country-ipv4.mmdb'));
      expect(countryOf('5.9.0.1')?.code).toBe('DE');
      expect(countryOf('2001:4860:4860::8888')).toBeNull(); // not in an IPv4-only file: unknown
      loadGeoDatabase(file('geo-whois-asn-country-ipv6.mmdb'));
      expect(countryOf('5.9.0.1')).toBeNull();
      expect(countryOf('2a01:4f8::1')?.code).toBe('DE');
    } finally {
      loadGeoDatabase();
    }
    expect(countryOf('5.9.0.1')?.code).toBe('DE');
  });
});

describe('referrers', () => {
  it('reduces a Referer to its host without www.', () => {
    expect(referrerHost('https://www.Example.com/path?q=1')).toBe('example.com');
    expect(referrerHost('https://news.ycombinator.com/')).toBe('news.ycombinator.com');
    expect(referrerHost('')).toBe('direct');
    expect(referrerHost('not a url')).toBe('direct');
  });

  it.each([
    ['facebook.com', 'facebook'],
    ['m.facebook.com', 'facebook'],
    ['l.facebook.com', 'facebook'],
    ['lm.facebook.com', 'facebook'],
    ['fb.com', 'facebook'],
    ['t.co', 'twitter'],
    ['x.com', 'twitter'],
    ['twitter.com', 'twitter'],
    ['mobile.twitter.com', 'twitter'],
    ['instagram.com', 'instagram'],
    ['l.instagram.com', 'instagram'],
    ['linkedin.com', 'linkedin'],
    ['lnkd.in', 'linkedin'],
    ['reddit.com', 'reddit'],
    ['old.reddit.com', 'reddit'],
    ['pinterest.com', 'pinterest'],
    ['pinterest.co.uk', 'pinterest'],
    ['youtube.com', 'youtube'],
    ['youtu.be', 'youtube'],
    ['tiktok.com', 'tiktok'],
    ['wa.me', 'whatsapp'],
    ['web.whatsapp.com', 'whatsapp'],
    ['t.me', 'telegram'],
  ])('%s → %s', (host, network) => {
    expect(socialNetwork(host)).toBe(network);
  });

  it.each(['example.com', 'notfacebook.com', 'facebook.com.evil.net', 'google.com', 'google.de', 'direct', 'co'])('%s is not social', (host) => {
    expect(socialNetwork(host)).toBeNull();
  });
});
