import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BoundedCache, ExpiringCache } from '../src/lib/bounded-cache.js';

describe('BoundedCache', () => {
  it('never holds more than max entries or maxWeight, and keeps what was just used', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('get', 'set', 'delete'), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 30 })), {
          maxLength: 300,
        }),
        (ops) => {
          const cache = new BoundedCache<number, number>(10, { maxWeight: 100, weigh: (w) => w });
          const lastSet = new Map<number, number>(); // get() would move entries, so weights are summed from here
          for (const [op, key, weight] of ops) {
            if (op === 'set') {
              cache.set(key, weight);
              lastSet.set(key, weight);
              expect(cache.get(key)).toBe(weight); // weights up to 30 fit in half of 100
            } else if (op === 'delete') {
              cache.delete(key);
              expect(cache.get(key)).toBeUndefined();
            } else {
              cache.get(key);
            }
            expect(cache.size).toBeLessThanOrEqual(10);
            expect(cache.keys().reduce((sum, k) => sum + lastSet.get(k)!, 0)).toBeLessThanOrEqual(100);
          }
        },
      ),
    );
  });

  it('keeps a used entry through a turnover and tells onEvict of forgotten ones only', () => {
    const evicted: string[] = [];
    const cache = new BoundedCache<string, number>(4, { onEvict: (key) => evicted.push(key) });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3); // turnover: a and b are now the older generation
    cache.delete('b');
    expect(cache.get('a')).toBe(1); // used again: moves back to the current one, beside c
    cache.set('d', 4); // turnover: c and a older
    cache.set('e', 5);
    expect(evicted).toEqual([]);
    cache.set('f', 6); // turnover: c and a are forgotten
    expect(evicted).toEqual(['c', 'a']); // b was deleted, not forgotten
    expect(['a', 'c'].map((key) => cache.get(key))).toEqual([undefined, undefined]);
    expect(['d', 'e', 'f'].map((key) => cache.get(key))).toEqual([4, 5, 6]);
  });

  it('does not keep an entry heavier than half its weight budget', () => {
    const cache = new BoundedCache<string, string>(10, { maxWeight: 10, weigh: (v) => v.length });
    cache.set('big', 'x'.repeat(6));
    expect(cache.get('big')).toBeUndefined();
    cache.set('small', 'x'.repeat(5));
    expect(cache.get('small')).toBe('xxxxx');
  });
});

describe('ExpiringCache', () => {
  it('answers stale entries as missing and keeps nothing with max 0', () => {
    const cache = new ExpiringCache<string>(10);
    cache.set('k', 'v', 1_000, 0);
    expect(cache.get('k', 999)).toBe('v');
    expect(cache.get('k', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
    const none = new ExpiringCache<string>(0);
    none.set('k', 'v', 1_000, 0);
    expect(none.get('k', 1)).toBeUndefined();
  });
});
