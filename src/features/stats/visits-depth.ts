/**
 * Deepest a numbered page of a visit log may start (0-based visit): deeper, `before` walks on at one page's
 * cost (docs/decisions/0014-visit-packs-by-owner.md). Its own module, so the dashboard reads it without typebox.
 */
export const VISIT_PAGE_DEPTH = 10_000;
