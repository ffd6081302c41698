import { Health } from '../health/access.js';
import { Type } from 'typebox';
import { listResponse } from '../../http/envelopes.js';
import { QR_TYPES } from './content.js';
import { DEFAULT_SIZE, SIZE_STEPS } from './serve.js';

export const QrEntrySchema = Type.Object({
  id: Type.Integer(),
  link: Type.String({ description: 'URL of the QR code image (PNG; add `?format=svg` for SVG, `?size=` for pixels).' }),
  scans: Type.Integer({ description: 'Scans counted so far (link codes are counted through their tracking address).' }),
  name: Type.String(),
  date: Type.String({ description: 'Timestamp `YYYY-MM-DD HH:MM:SS` (UTC)' }),
});

export const QrListResponse = listResponse('qrs', QrEntrySchema);

const StringCounts = Type.Union([Type.Record(Type.String(), Type.String()), Type.Literal(0)], {
  description: 'Label mapped to its count, written as a string; 0 when there is nothing.',
});

/** Extension: the code's content as add takes it, so an edit form can be filled and sent back unchanged. */
const QrContentFields = {
  type: Type.String({ description: `Extension: one of ${QR_TYPES.join(', ')}` }),
  data: Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean()]), {
    description: "Extension: the content as an object with the type's fields (see `data` of POST /api/qr/add)",
  }),
  background: Type.String({ description: 'Extension: `rgb(R,G,B)`' }),
  foreground: Type.String({ description: 'Extension: `rgb(R,G,B)`' }),
  logo: Type.String({ description: 'Extension: the stored logo (a data: URI or an http(s) URL), "" for none' }),
};

export const QrDetailResponse = Type.Object({
  error: Type.Literal(0),
  details: Type.Object({
    ...QrEntrySchema.properties,
    ...QrContentFields,
    health: Type.Optional({ ...Health, description: "Extension, link codes only: the health of the code's URL, checked in the background" }),
  }),
  data: Type.Object({
    clicks: Type.Integer(),
    uniqueClicks: Type.Integer(),
    topCountries: StringCounts,
    topReferrers: StringCounts,
    topBrowsers: StringCounts,
    topOs: StringCounts,
    socialCount: Type.Record(Type.String(), Type.Integer(), {
      description: 'Scans referred by each social network; facebook, twitter and instagram are always present.',
    }),
  }),
});

const DATA_DESCRIPTION =
  'Content of the code, by type: text `{text}`; link `{url}` (http or https; the code encodes our tracking address, ' +
  'which redirects there and counts the scan); phone `{phone}` (encoded tel:); email `{email, subject?, body?}` (mailto:); ' +
  'sms `{phone, message?}` (SMSTO:); wifi `{ssid, password?, encryption?: WPA|WEP|nopass, hidden?: boolean}` ' +
  '(WIFI:; encryption defaults to WPA with a password, nopass without); vcard `{firstname, lastname, organization?, phone?, ' +
  'email?, website?, address?}` (vCard 3.0; a first or last name is required). A plain string is also accepted and fills ' +
  'the main field: the text, URL, phone number, e-mail address (or a whole mailto: URI), SMS phone number, Wi-Fi SSID, ' +
  'or the vCard full name (the last word becomes the last name). The encoded payload must fit about 1,200 bytes.';

const COLOR = 'Color written `rgb(R,G,B)`, each 0–255; "" restores the default.';
const LOGO =
  'A `data:image/png;base64,…` or `data:image/jpeg;base64,…` URI (at most 256 KB decoded and 1024×1024 pixels; ' +
  'larger answers 400; stored shrunk to at most 431 pixels a side, the largest it is ever drawn), composed in the centre of ' +
  'the PNG and the SVG; or an http(s) URL of a png or jpg image, which the server never fetches: it is referenced ' +
  'from the SVG only (the viewer fetches it) and left out of the PNG. "" removes the logo. A logo switches the code ' +
  'to error correction H.';

const StyleFields = {
  data: Type.Unknown({ description: DATA_DESCRIPTION }),
  background: Type.Optional(Type.String({ description: `${COLOR} Default rgb(255,255,255).` })),
  foreground: Type.Optional(Type.String({ description: `${COLOR} Default rgb(0,0,0).` })),
  logo: Type.Optional(Type.String({ description: LOGO })),
};

export const QrAddBody = Type.Object({
  type: Type.String({ description: `One of ${QR_TYPES.join(', ')}.` }),
  ...StyleFields,
  name: Type.Optional(Type.String({ description: 'Extension: a name for the list; defaults to a summary of the data.' })),
});

export const QrUpdateBody = Type.Object({
  ...StyleFields,
  type: Type.Optional(Type.Unknown({ description: 'Accepted and ignored: the type of a code is fixed at creation.' })),
  name: Type.Optional(Type.String({ description: 'Extension: a new name; omitted or "" keeps the current one.' })),
});

export const QrCreatedResponse = Type.Object({
  error: Type.Literal(0),
  id: Type.Integer(),
  link: Type.String({ description: 'URL of the QR code image.' }),
});

export const SlugParam = Type.Object({ slug: Type.String() });

export const ImageQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('svg')], { description: 'png (default) or svg' })),
  size: Type.Optional(
    Type.Integer({
      description: `Width and height in pixels, served at the nearest of ${SIZE_STEPS.join(', ')}; default ${DEFAULT_SIZE}.`,
    }),
  ),
});
