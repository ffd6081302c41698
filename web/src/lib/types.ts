/**
 * Answers of the API as the server's own schemas declare them: type-only imports, so nothing of the server
 * reaches the bundle and a changed schema breaks the dashboard's type check instead of its users.
 */
import type { Static } from 'typebox';
import type { AccountResponse } from '../../../src/features/account/schema.js';
// The activity schema's module reaches the server's request type: its augmentation (req.account) comes with it.
import type { ActivityResponse } from '../../../src/features/account/activity/schema.js';
import type { ApiKeyBody, ApiKeyCreated, ApiKeyList, ApiKeySchema } from '../../../src/features/account/keys/schema.js';
import type { LinkBody, LinkCreated, LinkDetail, LinkEntry as LinkEntrySchema, LinkUpdated } from '../../../src/features/links/schema.js';
import type { ImportJob as ImportJobSchema } from '../../../src/features/links/transfer/import-schema.js';
import type { QrAddBody, QrCreatedResponse, QrDetailResponse, QrEntrySchema } from '../../../src/features/qr/schema.js';
import type { CampaignEntry as CampaignSchema } from '../../../src/features/campaigns/schema.js';
import type { ChannelEntry as ChannelSchema, ChannelItem as ChannelItemSchema } from '../../../src/features/channels/schema.js';
import type {
  BioAddBody,
  BioDetail,
  BioEntry as BioSchema,
  OverlayAddBody,
  OverlayDetail,
  OverlayEntry as OverlaySchema,
  SplashAddBody,
  SplashDetail,
  SplashEntry as SplashSchema,
} from '../../../src/features/custom-pages/schema.js';
import type { DomainSchema } from '../../../src/features/domains/schema.js';
import type { PixelSchema } from '../../../src/features/pixels/schema.js';
import type { SeriesResponse } from '../../../src/features/stats/series-schema.js';
import type { LatestVisitsResponse, VisitEntry } from '../../../src/features/stats/visits-schema.js';
import type { DeliveryView, WebhookAddBody, WebhookCreated, WebhookUpdateBody, WebhookView } from '../../../src/features/webhooks/schema.js';

export type Account = Static<typeof AccountResponse>['data'];
export type ApiKeyEntry = Static<typeof ApiKeySchema>;
export type ApiKeyListBody = Static<typeof ApiKeyList>;
export type ApiKeyInput = Static<typeof ApiKeyBody>;
export type ApiKeyCreatedBody = Static<typeof ApiKeyCreated>;
export type ActivityBody = Static<typeof ActivityResponse>;
export type ActivityEntry = ActivityBody['data']['activity'][number];
export type LinkInput = Static<typeof LinkBody>;
export type LinkEntry = Static<typeof LinkEntrySchema>;
export type LinkDetailBody = Static<typeof LinkDetail>;
export type LinkCreatedBody = Static<typeof LinkCreated>;
export type LinkUpdatedBody = Static<typeof LinkUpdated>;
export type ImportJob = Static<typeof ImportJobSchema>['data'];
export type QrEntry = Static<typeof QrEntrySchema>;
export type QrDetailBody = Static<typeof QrDetailResponse>;
export type QrInput = Static<typeof QrAddBody>;
export type QrCreatedBody = Static<typeof QrCreatedResponse>;
export type SeriesPoint = Static<typeof SeriesResponse>['data'][number];
export type Visit = Static<typeof VisitEntry>;
export type LatestVisitsBody = Static<typeof LatestVisitsResponse>;
export type LatestVisit = LatestVisitsBody['data']['visits'][number];
export type Domain = Static<typeof DomainSchema>;
export type Campaign = Static<typeof CampaignSchema>;
export type Channel = Static<typeof ChannelSchema>;
export type ChannelItem = Static<typeof ChannelItemSchema>;
export type Pixel = Static<typeof PixelSchema>;
export type Splash = Static<typeof SplashSchema>;
export type Overlay = Static<typeof OverlaySchema>;
export type Bio = Static<typeof BioSchema>;
export type SplashFull = Static<typeof SplashDetail>['data'];
export type OverlayFull = Static<typeof OverlayDetail>['data'];
export type BioFull = Static<typeof BioDetail>['data'];
export type SplashInput = Static<typeof SplashAddBody>;
export type OverlayInput = Static<typeof OverlayAddBody>;
export type BioInput = Static<typeof BioAddBody>;
export type { WebhookEvent } from '../../../src/features/webhooks/schema.js';
export type Webhook = Static<typeof WebhookView>;
export type WebhookInput = Static<typeof WebhookAddBody>;
export type WebhookUpdate = Static<typeof WebhookUpdateBody>;
export type WebhookCreatedBody = Static<typeof WebhookCreated>;
export type Delivery = Static<typeof DeliveryView>;
/** Two texts edited side by side: a target and its URL, a parameter and its value, a bio link's title and URL. */
export interface Row {
  key: string;
  value: string;
}
/** Label → count, as numbers (links) or strings (QR codes); 0 when there is nothing. */
export type Counts = Record<string, number | string> | 0;

/** The spec's list envelope (`listResponse` in src/http/envelopes.ts), with its collection under `key`. */
export type ListData<K extends string, T> = {
  result: number;
  perpage: number;
  currentpage: number;
  nextpage: number;
  maxpage: number;
} & Record<K, T[]>;
export type ListBody<K extends string, T> = { error: '0'; data: ListData<K, T> };
/** The spec's list envelopes of webhooks and of a webhook's deliveries (`WebhookList`, `DeliveryList`). */
export type WebhookListBody = ListBody<'webhooks', Webhook>;
export type DeliveryListBody = ListBody<'deliveries', Delivery>;
