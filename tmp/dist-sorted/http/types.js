/** The account of an authenticated /api request; the auth hook guarantees it is set. */
export function accountOf(req) {
    if (!req.account)
        throw new Error('route registered outside the authenticated /api scope');
    return req.account;
}
//# sourceMappingURL=types.js.map