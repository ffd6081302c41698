import { Type } from 'typebox';
import { MAX_CONDITIONS, MAX_RULES, MAX_VARIANTS, MAX_WEIGHT } from '../../lib/routing.js';

// The routing fields of add and update (issue 27). Checked further by lib/routing.ts, whose 400s name the rule and condition.

const Condition = Type.Object(
  {
    type: Type.String({ description: '`query`, `ip`, `date`, `browser`, `os`, `device`, `language` or `country`' }),
    name: Type.Optional(Type.String({ description: '`query`: the query parameter of the short URL' })),
    value: Type.Optional(
      Type.String({
        description:
          '`query`: the value it must equal (absent: any value); `ip`: an IPv4 or IPv6 address or CIDR network; `browser` (`firefox`), ' +
          '`os` (`ios`), `device` (a devicetarget name), `language` (`fr`, `pt-br`), `country` (ISO code `DE` or a geotarget location name)',
      }),
    ),
    absent: Type.Optional(Type.Boolean({ description: '`query`: true when the parameter must be missing' })),
    after: Type.Optional(Type.String({ description: '`date`: from this moment on, `YYYY-MM-DD HH:MM:SS` UTC' })),
    before: Type.Optional(Type.String({ description: '`date`: until this moment (excluded), `YYYY-MM-DD HH:MM:SS` UTC' })),
  },
  { description: 'One condition of a rule' },
);

const Variant = Type.Object({
  url: Type.String({ description: 'http(s) URL' }),
  weight: Type.Integer({ minimum: 1, maximum: MAX_WEIGHT, description: 'Relative weight' }),
});

export const Split = Type.Array(Variant, {
  maxItems: MAX_VARIANTS,
  description: `Extension: 2 to ${MAX_VARIANTS} weighted variants of the destination; a visitor keeps theirs (a hash of IP and user agent). [] = none (update)`,
});

const Rule = Type.Object({
  conditions: Type.Array(Condition, { maxItems: MAX_CONDITIONS, description: `1 to ${MAX_CONDITIONS} conditions; all must hold` }),
  url: Type.Optional(Type.String({ description: 'Where the rule sends visitors (or `split`)' })),
  split: Type.Optional(Split),
});

export const RoutingFields = {
  rules: Type.Array(Rule, {
    maxItems: MAX_RULES,
    description: `Extension: up to ${MAX_RULES} rules in order, the first whose conditions all hold picks the destination, before geotarget, devicetarget and languagetarget. [] = none (update)`,
  }),
  split: Split,
  maxvisits: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description:
      'Extension: after this many counted clicks the link behaves as expired (may overshoot by one click batch per node); null or 0 = no cap',
  }),
  expiredurl: Type.Union([Type.String(), Type.Null()], {
    description: 'Extension: where an expired or exhausted link sends visitors instead of the 410 page; "" or null = the page',
  }),
};

export const VariantStats = Type.Array(Type.Object({ url: Type.String(), clicks: Type.Integer(), uniqueClicks: Type.Integer() }), {
  description:
    "Extension: the default split's variants in order, then each rule split's, with their clicks; only on a link that splits its traffic (the spec's `data` keeps its keys otherwise)",
});
