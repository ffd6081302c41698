import * as repo from './repo.js';
/** What the redirect feature reads to show these pages to visitors; ownership is its own check. */
export function splashPage(db, id) {
    return repo.findSplashById(db, id);
}
export function overlay(db, id) {
    return repo.findOverlayById(db, id);
}
export function bioPageByAlias(db, alias) {
    return repo.findBioByAlias(db, alias);
}
//# sourceMappingURL=public.js.map