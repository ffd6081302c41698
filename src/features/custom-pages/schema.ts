import { Type } from 'typebox';

const date = Type.String({ description: 'Creation timestamp `YYYY-MM-DD HH:MM:SS` (UTC)' });
const name = Type.String({ maxLength: 100 });
const httpUrl = (what: string) => Type.String({ maxLength: 8192, description: `${what}: an http(s) URL, or "" for none` });

export const SplashEntry = Type.Object({ id: Type.Integer(), name: Type.String(), date });
export const OverlayEntry = Type.Object({
  id: Type.Integer(),
  type: Type.String({ description: '`message` or `contact`' }),
  name: Type.String(),
  date,
});
export const BioEntry = Type.Object({
  id: Type.Integer(),
  alias: Type.String(),
  name: Type.String(),
  url: Type.String({ description: '`{BASE_URL}/{alias}`' }),
  date,
});

export const Created = Type.Object({ error: Type.Literal(0), id: Type.Integer() });
export const BioCreated = Type.Object({ error: Type.Literal(0), id: Type.Integer(), url: Type.String() });

export const SplashAddBody = Type.Object({
  name,
  title: Type.Optional(Type.String({ maxLength: 200 })),
  content: Type.Optional(Type.String({ maxLength: 5000, description: 'Plain text; shown escaped' })),
  image: Type.Optional(httpUrl('Image')),
});
export const SplashUpdateBody = Type.Partial(SplashAddBody);

export const OverlayAddBody = Type.Object({
  type: Type.String({ description: '`message` or `contact`' }),
  name,
  message: Type.Optional(Type.String({ maxLength: 1000 })),
  button_text: Type.Optional(Type.String({ maxLength: 100 })),
  button_link: Type.Optional(httpUrl('Button link')),
  email: Type.Optional(
    Type.String({
      maxLength: 254,
      description: 'Contact overlays: the e-mail address visitors write to (the overlay shows a form that opens their mail client); "" for none',
    }),
  ),
});
export const OverlayUpdateBody = Type.Partial(OverlayAddBody);

export const MAX_BIO_LINKS = 100;
export const BioLink = Type.Object({ title: Type.String({ maxLength: 200 }), url: Type.String({ maxLength: 8192, description: 'http(s) URL' }) });
export const BioAddBody = Type.Object({
  alias: Type.String({
    description: '3 to 64 letters, digits, dashes or underscores; not reserved; free on the default domain (links and bio pages)',
  }),
  name,
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  avatar: Type.Optional(httpUrl('Avatar image')),
  links: Type.Optional(Type.Array(BioLink, { maxItems: MAX_BIO_LINKS, description: `At most ${MAX_BIO_LINKS}; update replaces the whole list` })),
});
export const BioUpdateBody = Type.Partial(BioAddBody);

/** One page with every field the editor shows (extension: the spec lists names only). */
export const SplashDetail = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({ id: Type.Integer(), name: Type.String(), title: Type.String(), content: Type.String(), image: Type.String(), date }),
});
export const OverlayDetail = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    id: Type.Integer(),
    type: Type.String({ description: '`message` or `contact`' }),
    name: Type.String(),
    message: Type.String(),
    button_text: Type.String(),
    button_link: Type.String(),
    email: Type.String(),
    date,
  }),
});
export const BioDetail = Type.Object({
  error: Type.Literal(0),
  data: Type.Object({
    id: Type.Integer(),
    alias: Type.String(),
    name: Type.String(),
    description: Type.String(),
    avatar: Type.String(),
    links: Type.Array(BioLink),
    url: Type.String({ description: '`{BASE_URL}/{alias}`' }),
    date,
  }),
});
