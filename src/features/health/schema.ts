import { Type, type Static } from 'typebox';

/** Extension: the last check of a link's destinations (docs/decisions/0010-link-health.md). */
export const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('unreachable'), Type.Literal('unknown')], {
      description:
        '`ok`: the final answer was 2xx or 3xx; `broken`: 4xx or 5xx, or redirects in a loop or beyond 5; `unreachable`: no answer ' +
        '(DNS, refused, timeout, or an address the checker never connects to); `unknown`: not checked yet, or checks are off',
    }),
    code: Type.Union([Type.Integer(), Type.Null()], { description: 'The final HTTP status; null without one' }),
    checked: Type.Union([Type.String(), Type.Null()], { description: 'When it was last checked, `YYYY-MM-DD HH:MM:SS` (UTC); null: never' }),
    since: Type.Union([Type.String(), Type.Null()], { description: 'Since when it has had this status; null: never checked' }),
  },
  { description: "Extension: the health of the link's destination, checked in the background every HEALTH_INTERVAL_S" },
);
export type HealthView = Static<typeof Health>;

export const HEALTH_STATUSES = ['ok', 'broken', 'unreachable', 'unknown'] as const;

export const CheckAnswer = Type.Object({ error: Type.Literal(0), health: Health });
