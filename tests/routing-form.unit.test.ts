import { describe, expect, it } from 'vitest';
import { checkRouting, routingErrorText, routingFieldOf } from '../web/src/features/links/routing-checks.js';
import { EMPTY_ROUTING, moved, routingBody, routingOfLink, shares, type RoutingForm } from '../web/src/features/links/routing-form.js';
import type { LinkDetailBody } from '../web/src/lib/types.js';

/** The link form's routing (web/src/features/links/routing-*.ts): what it sends, and where the API's errors land. */
type Details = LinkDetailBody['details'];
const stored = {
  rules: [
    {
      conditions: [
        { type: 'query', name: 'ref', value: 'mail' },
        { type: 'query', name: 'utm', absent: true },
        { type: 'query', name: 'any' },
        { type: 'date', after: '2026-12-01 10:00:00', before: '2027-01-01 00:00:00' },
        { type: 'language', value: 'fr' },
      ],
      url: 'https://example.com/mail',
    },
    {
      conditions: [{ type: 'ip', value: '2001:db8::/32' }],
      split: [
        { url: 'https://example.com/a', weight: 3 },
        { url: 'https://example.com/b', weight: 1 },
      ],
    },
  ],
  split: [
    { url: 'https://example.com/x', weight: 1 },
    { url: 'https://example.com/y', weight: 9 },
  ],
  maxvisits: 100,
  expiredurl: 'https://example.com/over',
} as unknown as Details;
const all = () => true;

describe('routing in the link form', () => {
  it('sends back what GET /api/url/{id} gave, unchanged', () => {
    const form = routingOfLink(stored);
    expect(checkRouting(form, all)).toEqual({});
    expect(routingBody(form, all, false)).toEqual({
      rules: stored.rules,
      split: stored.split,
      maxvisits: stored.maxvisits,
      expiredurl: stored.expiredurl,
    });
  });

  it("keeps a date condition's seconds", () => {
    const timed = { conditions: [{ type: 'date', after: '2026-12-01 10:00:30', before: '2027-01-01 23:59:59' }], url: 'https://example.com/t' };
    const form = routingOfLink({ ...stored, rules: [timed] } as unknown as Details);
    expect(form.rules[0]!.conditions[0]!.after).toMatch(/T\d\d:\d\d:30$/); // a datetime-local value with step=1
    expect(routingBody(form, all, false).rules).toEqual([timed]);
  });

  it('sends nothing for an empty new link, and clears on an edit that emptied the fields', () => {
    expect(routingBody(EMPTY_ROUTING, all, false)).toEqual({});
    expect(routingBody(EMPTY_ROUTING, all, true)).toEqual({ rules: [], split: [], maxvisits: null, expiredurl: '' });
    expect(routingBody(EMPTY_ROUTING, (name) => name === 'maxvisits', true)).toEqual({ maxvisits: null });
  });

  it('shows each variant its share, and moves items within bounds', () => {
    expect(shares(routingOfLink(stored).split)).toEqual([10, 90]);
    expect(
      shares([
        { url: '', weight: '' },
        { url: '', weight: 'x' },
      ]),
    ).toEqual([0, 0]);
    expect(moved([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moved([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
  });

  it('catches what is missing before the server, by input id', () => {
    const form: RoutingForm = {
      rules: [
        {
          conditions: [{ type: 'ip', name: '', value: ' ', absent: false, after: '', before: '' }],
          target: 'split',
          url: '',
          split: [
            { url: 'example.com', weight: '0' },
            { url: 'https://example.com/b', weight: '2' },
          ],
        },
      ],
      split: [],
      maxvisits: '-1',
      expiredurl: 'nope',
    };
    expect(Object.keys(checkRouting(form, all))).toEqual(['rule-0-cond-0', 'rule-0-split-0-url', 'rule-0-split-0-weight', 'maxvisits', 'expiredurl']);
  });

  it.each([
    ['rules[1].conditions[0]: ip needs a value', 'rule-1-cond-0'],
    ['rules[0].url: must be an http(s) URL.', 'rule-0-url'],
    ['rules[2]: send url or split (not both).', 'rule-2-url'],
    ['rules[0].split: a split has 2 to 10 variants.', 'rule-0-split'],
    ['rules[0].split[1]: weight must be a whole number from 1 to 10000.', 'rule-0-split-1-weight'],
    ['rules[3].split[0].url: must be an http(s) URL.', 'rule-3-split-0-url'],
    ['split: a split has 2 to 10 variants.', 'split'],
    ['split[4].url: must be an http(s) URL.', 'split-4-url'],
    ['expiredurl: must be an http(s) URL.', 'expiredurl'],
    ['rules: at most 20 rules.', null],
  ])('puts %s at %s', (message, id) => {
    expect(routingFieldOf(message)).toBe(id);
  });

  it('shows the message without the place it names', () => {
    expect(routingErrorText('rules[1].conditions[0]: ip needs a value: an IPv4 or IPv6 address.')).toBe('IP needs a value: an IPv4 or IPv6 address.');
    expect(routingErrorText('split[0].url: must be an http(s) URL.')).toBe('Must be an http(s) URL.');
  });
});
