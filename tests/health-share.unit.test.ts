import { expect, it } from 'vitest';
import { fairPick } from '../src/features/health/share.js';

const of = (shares: string) => shares.split('').map((share, i) => ({ share, i }));

it('picks round-robin by account and holds one account to its share while others wait', () => {
  const { picked, over, spare } = fairPick(of('AAAAAAB'), 4, new Map(), 2);
  expect(picked.map((c) => c.share).join('')).toBe('ABA');
  expect(over.map((c) => c.i)).toEqual([2, 3, 4, 5]);
  expect(spare).toEqual([]);
});

it('counts checks already in flight, and lets an account alone take every slot', () => {
  expect(fairPick(of('AAB'), 4, new Map([['A', 2]]), 2).picked.map((c) => c.share)).toEqual(['B']);
  const alone = fairPick(of('AAAAAA'), 4, new Map(), 2);
  expect([alone.picked.length, alone.over.length, alone.spare.length]).toEqual([4, 0, 2]);
});
