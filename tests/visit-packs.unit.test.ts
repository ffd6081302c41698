import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clickAggregator } from '../src/clicks/derive.js';
import { packer, unpack } from '../src/clicks/visit-log.js';
import { VisitBuffer } from '../src/clicks/visit-columns.js';
import { UA } from './helpers/user-agents.js';

const aggregate = clickAggregator('secret');
const AGENTS = [UA.iphone, UA.windowsChrome];
const REFERERS = ['', 'https://news.example.org/a', 'https://t.co/x'];

/** A visit as the pack must give it back: its second, referrer host, device kind and rule. */
const visit = fc.record({
  ms: fc.integer({ min: 1_790_000_000_000, max: 1_790_000_300_000 }),
  agent: fc.integer({ min: 0, max: AGENTS.length - 1 }),
  referer: fc.integer({ min: 0, max: REFERERS.length - 1 }),
  // Up to 400 distinct rules: over 256 labels a pack needs two bytes per index.
  rule: fc.integer({ min: 0, max: 399 }).map((n) => `geo:place-${n}`),
});

describe('visit packs', () => {
  it('give back every visit of a target, newest first, whatever their order of arrival and however many labels', () => {
    fc.assert(
      fc.property(fc.array(visit, { minLength: 1, maxLength: 600 }), (visits) => {
        const buffer = new VisitBuffer();
        for (const v of visits)
          buffer.append('link', 7, 1, { ip: '8.8.8.8', userAgent: AGENTS[v.agent]!, referer: REFERERS[v.referer]! }, v.ms, v.rule);
        const { targets, visits: log } = aggregate(buffer.seal());
        const pack = packer(log)(targets[0]!.logged)!;
        const back = unpack({ target_kind: 'link', target_id: 7, at: pack.at, n: pack.n, labels: pack.labels, codes: pack.codes });
        const expected = visits
          .map((v) => ({
            at: Math.floor(v.ms / 1000),
            rule: v.rule,
            device: v.agent === 0 ? 'mobile' : 'desktop',
            referrer: ['direct', 'news.example.org', 't.co'][v.referer],
          }))
          .reverse();
        expect(back.map(({ at, rule, device, referrer }) => ({ at, rule, device, referrer }))).toEqual(expected);
        expect(pack.at).toBe(Math.min(...expected.map((v) => v.at)));
      }),
      { numRuns: 60 },
    );
  });
});
