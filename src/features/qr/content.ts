import { fail } from '../../lib/errors.js';
import { checkHttpUrl } from '../../lib/urls.js';
import { checkEmail, checkPhone, Fields } from './fields.js';

export const QR_TYPES = ['text', 'vcard', 'link', 'email', 'phone', 'sms', 'wifi'] as const;
export type QrType = (typeof QR_TYPES)[number];

/** The normalized content of a code, stored as JSON in qr_codes.data. */
export type Content = Record<string, string | boolean>;

interface Kind {
  /** The field an older client's plain-string `data` fills. */
  main: string;
  /** Turns a plain string into the object form when filling `main` alone is not enough. */
  split?(value: string): Record<string, unknown>;
  read(fields: Fields): Content;
  /** The standard payload (link codes encode our tracking address instead: see service.ts). */
  encode(content: Content): string;
  /** The default name of a code whose client sent none. */
  title(content: Content): string;
}

const s = (value: string | boolean | undefined) => String(value ?? '');

/** WIFI: fields escape \ ; , : " with a backslash. */
const wifiEscape = (value: string) => value.replace(/[\\;,:"]/g, (ch) => `\\${ch}`);
/** vCard 3.0 text values escape \ , ; and newlines. */
const vcardEscape = (value: string) => value.replace(/[\\,;]/g, (ch) => `\\${ch}`).replace(/\r?\n/g, '\\n');

function readEncryption(fields: Fields, password: string): string {
  const raw = fields.text('encryption');
  if (raw === '') return password === '' ? 'nopass' : 'WPA';
  if (/^nopass$/i.test(raw)) return 'nopass';
  if (/^WPA\d?$/i.test(raw)) return 'WPA';
  if (/^WEP$/i.test(raw)) return 'WEP';
  throw fail('invalid_field', `The field "${fields.label('encryption')}" must be WPA, WEP or nopass.`);
}

const wifi: Kind = {
  main: 'ssid',
  read(f) {
    const ssid = f.text('ssid', { required: true, keep: true });
    const password = f.text('password', { keep: true });
    const encryption = readEncryption(f, password);
    if (encryption !== 'nopass' && password === '') throw f.missing('password');
    return { ssid, password: encryption === 'nopass' ? '' : password, encryption, hidden: f.flag('hidden') };
  },
  encode: (c) =>
    `WIFI:T:${s(c.encryption)};S:${wifiEscape(s(c.ssid))};` +
    (c.encryption === 'nopass' ? '' : `P:${wifiEscape(s(c.password))};`) +
    (c.hidden ? 'H:true;' : '') +
    ';',
  title: (c) => s(c.ssid),
};

const vcard: Kind = {
  main: 'firstname',
  split(value) {
    const words = value.trim().split(/\s+/);
    const lastname = words.length > 1 ? words.pop()! : '';
    return { firstname: words.join(' '), lastname };
  },
  read(f) {
    const firstname = f.text('firstname');
    const lastname = f.text('lastname');
    if (firstname === '' && lastname === '') throw f.missing('firstname');
    const website = f.text('website');
    return {
      firstname,
      lastname,
      organization: f.text('organization'),
      phone: checkPhone(f, 'phone', f.text('phone')),
      email: checkEmail(f, 'email', f.text('email')),
      website: website === '' ? '' : checkHttpUrl(website, f.phrase('website')).href,
      address: f.text('address'),
    };
  },
  encode(c) {
    const optional: Array<[string, string]> = [
      ['ORG', s(c.organization)],
      ['TEL', s(c.phone)],
      ['EMAIL', s(c.email)],
      ['URL', s(c.website)],
    ];
    return [
      'BEGIN:VCARD',
      'VERSION:3.0',
      `N:${vcardEscape(s(c.lastname))};${vcardEscape(s(c.firstname))};;;`,
      `FN:${vcardEscape(vcard.title(c))}`,
      ...optional.filter(([, v]) => v !== '').map(([k, v]) => `${k}:${vcardEscape(v)}`),
      ...(c.address ? [`ADR:;;${vcardEscape(s(c.address))};;;;`] : []),
      'END:VCARD',
    ].join('\n');
  },
  title: (c) => `${s(c.firstname)} ${s(c.lastname)}`.trim(),
};

const email: Kind = {
  main: 'email',
  split(value) {
    if (!/^mailto:/i.test(value.trim())) return { email: value };
    try {
      const url = new URL(value.trim());
      const get = (name: string) => url.searchParams.get(name) ?? '';
      return { email: decodeURIComponent(url.pathname), subject: get('subject'), body: get('body') };
    } catch {
      return { email: value }; // refused below as not an e-mail address
    }
  },
  read: (f) => ({
    email: checkEmail(f, 'email', f.text('email', { required: true })),
    subject: f.text('subject', { keep: true }),
    body: f.text('body', { keep: true }),
  }),
  encode(c) {
    const address = encodeURIComponent(s(c.email)).replace(/%40/g, '@').replace(/%2B/g, '+');
    const query = (['subject', 'body'] as const).filter((k) => c[k]).map((k) => `${k}=${encodeURIComponent(s(c[k]))}`);
    return `mailto:${address}${query.length ? `?${query.join('&')}` : ''}`;
  },
  title: (c) => s(c.email),
};

const KINDS: Record<QrType, Kind> = {
  text: {
    main: 'text',
    read: (f) => ({ text: f.text('text', { required: true, keep: true }) }),
    encode: (c) => s(c.text),
    title: (c) => s(c.text).split('\n')[0]!.trim(),
  },
  link: {
    main: 'url',
    read: (f) => ({ url: checkHttpUrl(f.text('url', { required: true }), f.phrase('url')).href }),
    encode: (c) => s(c.url),
    title: (c) => s(c.url),
  },
  phone: {
    main: 'phone',
    split: (value) => ({ phone: value.replace(/^\s*tel:/i, '') }),
    read: (f) => ({ phone: checkPhone(f, 'phone', f.text('phone', { required: true })) }),
    encode: (c) => `tel:${s(c.phone)}`,
    title: (c) => s(c.phone),
  },
  sms: {
    main: 'phone',
    read: (f) => ({ phone: checkPhone(f, 'phone', f.text('phone', { required: true })), message: f.text('message', { keep: true }) }),
    encode: (c) => `SMSTO:${s(c.phone)}:${s(c.message)}`,
    title: (c) => s(c.phone),
  },
  email,
  wifi,
  vcard,
};

export function checkType(value: string): QrType {
  const type = value.trim().toLowerCase();
  if (!(QR_TYPES as readonly string[]).includes(type)) {
    throw fail('invalid_field', `The field "type" must be one of ${QR_TYPES.join(', ')}.`);
  }
  return type as QrType;
}

/** Validates `data` for a type: an object with the type's fields, or a plain string filling its main field. */
export function readContent(type: QrType, data: unknown): Content {
  const kind = KINDS[type];
  if (typeof data === 'string') {
    const source = kind.split ? kind.split(data) : { [kind.main]: data };
    return kind.read(new Fields(source, kind.main));
  }
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
    return kind.read(new Fields(data as Record<string, unknown>));
  }
  throw fail('invalid_field', 'The field "data" must be a string or an object with the fields of the QR code type.');
}

export function encodeContent(type: QrType, content: Content): string {
  return KINDS[type].encode(content);
}

export function titleOf(type: QrType, content: Content): string {
  const title = KINDS[type].title(content) || `${type} QR code`;
  return title.length > 100 ? `${title.slice(0, 99)}…` : title;
}
