/** The fields of each QR type (the `data` object of qr/add) and the text a scanner reads, for the live preview. */
export const QR_TYPES = ['link', 'text', 'email', 'phone', 'sms', 'wifi', 'vcard'] as const;
export type QrKind = (typeof QR_TYPES)[number];

export const QR_FIELDS: Record<QrKind, { name: string; label: string; type?: string }[]> = {
  link: [{ name: 'url', label: 'URL', type: 'url' }],
  text: [{ name: 'text', label: 'Text' }],
  email: [
    { name: 'email', label: 'E-mail address', type: 'email' },
    { name: 'subject', label: 'Subject' },
    { name: 'body', label: 'Message' },
  ],
  phone: [{ name: 'phone', label: 'Phone number', type: 'tel' }],
  sms: [
    { name: 'phone', label: 'Phone number', type: 'tel' },
    { name: 'message', label: 'Message' },
  ],
  wifi: [
    { name: 'ssid', label: 'Network name (SSID)' },
    { name: 'password', label: 'Password' },
  ],
  vcard: [
    { name: 'firstname', label: 'First name' },
    { name: 'lastname', label: 'Last name' },
    { name: 'organization', label: 'Organization' },
    { name: 'phone', label: 'Phone', type: 'tel' },
    { name: 'email', label: 'E-mail', type: 'email' },
    { name: 'website', label: 'Website', type: 'url' },
  ],
};

const wifiEscape = (value: string) => value.replace(/[\\;,:"]/g, (ch) => `\\${ch}`);

/**
 * What the code will hold, as the server encodes it (src/features/qr/content.ts); a link code saved on the
 * server holds its tracking address instead, which forwards to the URL and counts the scan.
 */
export function previewPayload(kind: QrKind, data: Record<string, string>): string {
  const v = (name: string) => (data[name] ?? '').trim();
  switch (kind) {
    case 'link':
      return v('url');
    case 'text':
      return v('text');
    case 'phone':
      return `tel:${v('phone')}`;
    case 'email':
      return `mailto:${v('email')}${v('subject') ? `?subject=${encodeURIComponent(v('subject'))}` : ''}`;
    case 'sms':
      return `SMSTO:${v('phone')}:${v('message')}`;
    case 'wifi':
      return `WIFI:T:${v('password') ? 'WPA' : 'nopass'};S:${wifiEscape(v('ssid'))};${v('password') ? `P:${wifiEscape(v('password'))};` : ''};`;
    case 'vcard':
      return [
        'BEGIN:VCARD',
        'VERSION:3.0',
        `N:${v('lastname')};${v('firstname')}`,
        `FN:${v('firstname')} ${v('lastname')}`.trim(),
        v('organization') && `ORG:${v('organization')}`,
        v('phone') && `TEL:${v('phone')}`,
        v('email') && `EMAIL:${v('email')}`,
        v('website') && `URL:${v('website')}`,
        'END:VCARD',
      ]
        .filter(Boolean)
        .join('\n');
  }
}

/** `#rrggbb` of a colour input → the API's `rgb(R,G,B)`. */
export function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255})`;
}

/** The API's `rgb(R,G,B)` → `#rrggbb` for a colour input; `fallback` when it is not one. */
export function rgbToHex(rgb: string, fallback: string): string {
  const m = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i.exec(rgb.trim());
  if (!m) return fallback;
  return `#${[m[1], m[2], m[3]].map((c) => Math.min(255, Number(c)).toString(16).padStart(2, '0')).join('')}`;
}
