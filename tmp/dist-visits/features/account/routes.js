import { errorResponses, ok, OkMessage } from '../../http/envelopes.js';
import { accountOf } from '../../http/types.js';
import { AccountResponse, AccountUpdateBody } from './schema.js';
import { getAccount, updateAccount } from './service.js';
export function accountRoutes(app, ctx) {
    const read = { tags: ['account'], response: { 200: AccountResponse, ...errorResponses } };
    app.get('/account', { schema: { ...read, summary: 'The account that owns the API key' } }, async (req) => ({
        error: 0,
        data: await getAccount(ctx, accountOf(req).userId),
    }));
    // The spec's authentication demo POSTs here; it answers like GET.
    app.post('/account', { schema: { ...read, summary: 'Same as GET /api/account' } }, async (req) => ({
        error: 0,
        data: await getAccount(ctx, accountOf(req).userId),
    }));
    app.put('/account/update', {
        schema: { tags: ['account'], summary: 'Change e-mail and/or password', body: AccountUpdateBody, response: { 200: OkMessage, ...errorResponses } },
    }, async (req) => {
        await updateAccount(ctx, accountOf(req).userId, req.body);
        return ok('Account has been successfully updated.');
    });
}
//# sourceMappingURL=routes.js.map