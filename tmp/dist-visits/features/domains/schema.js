import { Type } from 'typebox';
import { listResponse } from '../../http/envelopes.js';
export const DomainSchema = Type.Object({
    id: Type.Integer(),
    domain: Type.String({ description: 'Full address including the scheme, e.g. `https://go.example.com`' }),
    redirectroot: Type.String({ description: 'Where a visit to the bare domain goes; "" for none' }),
    redirect404: Type.String({ description: 'Where an unknown alias on this domain goes; "" for the standard 404 page' }),
});
export const DomainList = listResponse('domains', DomainSchema);
const Redirects = {
    redirectroot: Type.Optional(Type.String({ description: 'http(s) URL, or "" for none' })),
    redirect404: Type.Optional(Type.String({ description: 'http(s) URL, or "" for none' })),
};
export const DomainAddBody = Type.Object({
    domain: Type.String({ description: 'Scheme and host only, e.g. `https://go.example.com`' }),
    ...Redirects,
});
export const DomainUpdateBody = Type.Object(Redirects);
export const DomainCreated = Type.Object({ error: Type.Literal(0), id: Type.Integer() });
//# sourceMappingURL=schema.js.map