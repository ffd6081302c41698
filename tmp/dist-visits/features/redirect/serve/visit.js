import { decide } from '../decide/decide.js';
import { NOT_FOUND_PAGE } from '../../../lib/error-pages.js';
import { LANDING_PAGE } from '../pages/site.js';
const page = (status, rendered) => ({ kind: 'page', status, page: rendered, count: false });
const NOT_FOUND = page(404, NOT_FOUND_PAGE);
const LANDING = page(200, LANDING_PAGE);
export function answerVisit(ctx, found, visit) {
    if (found.kind !== 'link')
        return answerNoLink(found);
    const decision = decide(found, visit, ctx.secret);
    if (decision.count && visit.method === 'GET') {
        ctx.clicks.record('link', found.id, found.owner, visit, decision.rule); // only its ip, user agent and referer are kept
    }
    return decision;
}
/** A bio page, the branded domain's 404 redirect, or our 404 page. */
export function answerNoLink(found) {
    if (found.kind === 'bio')
        return { kind: 'page', status: 200, page: found.page, count: false };
    if (found.kind === 'missing' && found.site.notFound)
        return { kind: 'redirect', status: 302, location: found.site.notFound, count: false };
    return NOT_FOUND;
}
/** `/`: a branded domain's root redirect, else the landing page. */
export function answerRoot(site) {
    return site.root ? { kind: 'redirect', status: 302, location: site.root, count: false } : LANDING;
}
//# sourceMappingURL=visit.js.map