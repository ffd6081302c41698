/** What other features may read of campaigns; the SQL stays in repo.ts. */
export { ownsCampaign } from './repo.js';
export { invalidateCampaigns } from './service.js';
