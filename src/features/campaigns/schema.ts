import { Type } from 'typebox';
import { Id } from '../../http/envelopes.js';

export const SLUG_DESCRIPTION = 'Rotator slug: 3 to 64 letters, digits, dashes or underscores (case-sensitive), unique across the service.';

export const CampaignEntry = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  public: Type.Boolean({ description: 'Whether the list page at `list` is visible to everyone.' }),
  rotator: Type.Union([Type.String(), Type.Literal(false)], { description: '`{BASE_URL}/r/{slug}`, or false when the campaign has no slug.' }),
  list: Type.String({
    description: '`{BASE_URL}/u/{username}/{slug}-{id}`; without a slug, the name made URL-safe (or `campaign`) stands before the dash.',
  }),
});

/** Add and update answer with the name under `domain` (the spec's quirk) and under `campaign` (what clients read). */
export const CampaignSaved = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  domain: Type.String({ description: 'The campaign name (spec quirk).' }),
  campaign: Type.String({ description: 'The campaign name.' }),
  public: Type.Boolean(),
  rotator: CampaignEntry.properties.rotator,
  list: Type.String(),
});

const Slug = Type.Union([Type.String({ description: SLUG_DESCRIPTION }), Type.Null()]);

export const CampaignAddBody = Type.Object({
  name: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Unique per account. Default: "Campaign N", the first free N from the number of campaigns plus one.',
    }),
  ),
  slug: Type.Optional(Slug),
  public: Type.Optional(Type.Boolean({ description: 'Default false.' })),
});

export const CampaignUpdateBody = Type.Object({
  name: Type.String({ maxLength: 100 }),
  slug: Type.Optional(Type.Union([Type.String({ description: `${SLUG_DESCRIPTION} "" or null removes it; omitted keeps it.` }), Type.Null()])),
  public: Type.Optional(Type.Boolean({ description: 'Omitted keeps the current setting.' })),
});

export const AssignParams = Type.Object({ campaignid: Id('Campaign id'), linkid: Id('Short link id') });
