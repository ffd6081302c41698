import { Type } from 'typebox';
import { Id } from '../../http/envelopes.js';
const COLOR = 'Badge color `#RRGGBB`; "" for none.';
export const ChannelEntry = Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    color: Type.String({ description: COLOR }),
    starred: Type.Boolean(),
});
export const ChannelItem = Type.Object({
    type: Type.String({ description: '`links`, `bio` or `qr`' }),
    id: Type.Integer({ description: 'Id of the item within its type' }),
    title: Type.String({ description: 'Link title (else its meta title, else its long URL), bio page name or QR code name' }),
    preview: Type.String({ description: 'Links: the long URL; bio pages and QR codes: their public URL' }),
    link: Type.String({ description: 'Links: the short URL; bio pages: `{BASE_URL}/{alias}`; QR codes: `{BASE_URL}/qr/{slug}`' }),
    date: Type.String({ description: 'Creation date of the item, `YYYY-MM-DD`' }),
});
export const ChannelSaved = Type.Object({ error: Type.Literal(0), ...ChannelEntry.properties });
export const ChannelUpdated = Type.Object({ error: Type.Literal(0), message: Type.String(), ...ChannelEntry.properties });
const fields = {
    description: Type.String({ maxLength: 1000 }),
    color: Type.String({ description: COLOR }),
    starred: Type.Boolean(),
};
export const ChannelAddBody = Type.Object({
    name: Type.String({ maxLength: 100, description: 'Unique per account' }),
    description: Type.Optional(fields.description),
    color: Type.Optional(fields.color),
    starred: Type.Optional(fields.starred),
});
export const ChannelUpdateBody = Type.Object({
    name: Type.Optional(Type.String({ maxLength: 100, description: 'Unique per account' })),
    description: Type.Optional(fields.description),
    color: Type.Optional(fields.color),
    starred: Type.Optional(fields.starred),
});
export const AssignParams = Type.Object({
    channelid: Id('Channel id'),
    type: Type.String({ description: '`links`, `bio` or `qr`' }),
    itemid: Id('Id of the link, bio page or QR code'),
});
//# sourceMappingURL=schema.js.map