/** What other modules may read of the domains table; the SQL stays in repo.ts. */
export { domainAddressOf, publicDomainQuery } from './repo.js';
