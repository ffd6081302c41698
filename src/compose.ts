import { accountDeletion } from './features/account/ports.js';
import { invalidateCampaigns, ownsCampaign } from './features/campaigns/access.js';
import { itemSources } from './features/channels/ports.js';
import { bioAliasesTaken, bioItemSource, ownsPage } from './features/custom-pages/public.js';
import { domainLinks } from './features/domains/ports.js';
import {
  campaignLinkIds,
  countLinksOn,
  forgetAccountLinks,
  invalidateLinks,
  linkIdsOf,
  linkHealthSource,
  linkItemSource,
  linkSummaries,
  noLinkOn,
  ownsLink,
} from './features/links/access.js';
import { linkNeighbours } from './features/links/ports.js';
import { healthSources } from './features/health/access.js';
import { pixelLinks } from './features/pixels/ports.js';
import { forgetAccountQrs, ownsQr, qrHealthSource, qrIdsOf, qrItemSource, qrNames } from './features/qr/access.js';
import { statsTargets } from './features/stats/ports.js';
import { CLICK_HOOK_MODULE, kyselyBatchHook } from './features/webhooks/access.js';
import { clickBatchHooks } from './clicks/batch-hooks.js';

/**
 * The composition root of the features' mutual needs: where two features would import each other (links
 * uses channels, channels lists links), one declares a port and this plugs the other in. Every table is
 * still read and written by its owner only (docs/decisions/0002-table-ownership.md).
 */
export function composeFeatures(): void {
  linkNeighbours.plug({
    ownsCampaign,
    campaignsChanged: invalidateCampaigns,
    ownsPage,
    bioAliasesTaken,
  });
  domainLinks.plug({ noLinkOn, countOn: countLinksOn });
  pixelLinks.plug({ changed: invalidateLinks });
  accountDeletion.plug([forgetAccountLinks, forgetAccountQrs]);
  statsTargets.plug({
    owns: { link: ownsLink, qr: ownsQr, campaign: ownsCampaign },
    linkIds: linkIdsOf,
    qrIds: qrIdsOf,
    campaignLinkIds,
    linkNames: linkSummaries,
    qrNames,
  });
  itemSources.plug({ links: linkItemSource, bio: bioItemSource, qr: qrItemSource });
  healthSources.plug({ link: linkHealthSource, qr: qrHealthSource });
  // link.clicked is queued in each click batch's transaction; on SQLite the writer thread loads the module.
  clickBatchHooks.plug({ kysely: [kyselyBatchHook], modules: [CLICK_HOOK_MODULE] });
}
