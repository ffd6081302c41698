import { describe, expect, it } from 'vitest';
import { referrerHost, referrerKind, searchEngine, socialNetwork } from '../src/lib/referrer.js';

/** Referrer classification: search engines (national domains included) are search, never a social network. */
describe('search engines', () => {
  it.each([
    ['google.com', 'google'],
    ['google.de', 'google'],
    ['google.co.uk', 'google'],
    ['google.com.au', 'google'],
    ['google.co.jp', 'google'],
    ['news.google.com', 'google'],
    ['bing.com', 'bing'],
    ['cn.bing.com', 'bing'],
    ['duckduckgo.com', 'duckduckgo'],
    ['search.yahoo.com', 'yahoo'],
    ['de.search.yahoo.com', 'yahoo'],
    ['yahoo.co.jp', 'yahoo'],
    ['yandex.ru', 'yandex'],
    ['yandex.com.tr', 'yandex'],
    ['baidu.com', 'baidu'],
    ['m.baidu.com', 'baidu'],
    ['ecosia.org', 'ecosia'],
    ['qwant.com', 'qwant'],
    ['startpage.com', 'startpage'],
    ['search.brave.com', 'brave'],
  ])('%s is the search engine %s, not a social network', (host, engine) => {
    expect(searchEngine(host)).toBe(engine);
    expect(socialNetwork(host)).toBeNull();
    expect(referrerKind(host)).toBe('search');
  });

  it('classifies the host a Referer header reduces to', () => {
    expect(referrerKind(referrerHost('https://www.google.co.uk/search?q=shoes'))).toBe('search');
    expect(referrerKind(referrerHost('https://www.bing.com/search?q=x'))).toBe('search');
    expect(referrerKind(referrerHost('https://l.facebook.com/l.php?u=x'))).toBe('social');
    expect(referrerKind(referrerHost('https://pinterest.fr/pin/1'))).toBe('social');
    expect(referrerKind(referrerHost(''))).toBe('direct');
    expect(referrerKind(referrerHost('https://news.ycombinator.com/item?id=1'))).toBe('other');
  });

  it.each(['google.evil.com', 'notgoogle.com', 'bing.com.evil.net', 'brave.com', 'example.com', 'yandex.example.org'])(
    '%s is no search engine',
    (host) => {
      expect(searchEngine(host)).toBeNull();
    },
  );

  it('keeps social networks social', () => {
    expect(socialNetwork('m.facebook.com')).toBe('facebook');
    expect(socialNetwork('pinterest.co.uk')).toBe('pinterest');
    expect(searchEngine('pinterest.co.uk')).toBeNull();
    expect(searchEngine('t.co')).toBeNull();
  });
});
