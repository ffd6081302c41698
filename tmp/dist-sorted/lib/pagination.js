import { Type } from 'typebox';
export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 1000;
/** Pages past the end are empty anyway; beyond this the offset would overflow the database's integers. */
export const MAX_PAGE = 2_147_483_647;
/** Query schema shared by every list endpoint; out-of-range values are clamped, not refused. */
export const PageQuery = Type.Object({
    limit: Type.Optional(Type.Integer({ description: `Results per page, default ${DEFAULT_PAGE_SIZE}, capped at ${MAX_PAGE_SIZE}` })),
    page: Type.Optional(Type.Integer({ description: 'Page number, from 1' })),
});
export function toPage(query) {
    const limit = Math.min(Math.max(query.limit ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const page = Math.min(Math.max(query.page ?? 1, 1), MAX_PAGE);
    return { limit, page, offset: (page - 1) * limit };
}
/** The spec's list arithmetic: `result` is the total, `nextpage` 0 on the last page. */
export function listData(page, total, items) {
    const maxpage = Math.max(Math.ceil(total / page.limit), 1);
    return {
        result: total,
        perpage: page.limit,
        currentpage: page.page,
        nextpage: page.page < maxpage ? page.page + 1 : 0,
        maxpage,
        items,
    };
}
/** Wraps list data in the spec's envelope, with `error` as the string "0" and the collection under `key`. */
export function listEnvelope(key, data) {
    const { items, ...counts } = data;
    return { error: '0', data: { ...counts, [key]: items } };
}
//# sourceMappingURL=pagination.js.map