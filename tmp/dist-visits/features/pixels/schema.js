import { Type } from 'typebox';
import { listResponse } from '../../http/envelopes.js';
import { PIXEL_TYPES } from './types.js';
export const MAX_NAME = 100;
export const PixelSchema = Type.Object({
    id: Type.Integer(),
    type: Type.String({ description: `One of ${PIXEL_TYPES.join(', ')}` }),
    name: Type.String(),
    tag: Type.String({ description: 'Provider tag or id' }),
    date: Type.String({ description: 'Timestamp `YYYY-MM-DD HH:MM:SS` (UTC)' }),
});
export const PixelList = listResponse('pixels', PixelSchema);
const Name = Type.String({ maxLength: MAX_NAME, description: `Custom name, 1 to ${MAX_NAME} characters` });
const Tag = Type.String({ description: 'Provider tag or id: 1 to 128 letters, digits, `_ . : -`' });
export const PixelAddBody = Type.Object({
    type: Type.String({
        description: `One of ${PIXEL_TYPES.join(', ')}. The provider identifiers of older clients (gtmpixel, gapixel, fbpixel, …) are accepted and stored as the neutral value in the same position.`,
    }),
    name: Name,
    tag: Tag,
});
export const PixelUpdateBody = Type.Object({ name: Type.Optional(Name), tag: Tag });
export const PixelCreated = Type.Object({ error: Type.Literal(0), id: Type.Integer() });
//# sourceMappingURL=schema.js.map