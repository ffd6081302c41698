/** Tiny HTML helpers for the public pages: one escaper, one layout, one set of security headers. */

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/** Headers every public HTML page sends: no scripts, no sniffing, no full URLs leaked to third parties. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
  'a{color:#0b57d0}ul{padding-left:1.2rem}li{margin:.4rem 0}';

/**
 * The shared page layout. `title` is plain text (escaped here); `body` is HTML the caller built with
 * escapeHtml around every user-typed value.
 */
export function page(input: { title: string; body: string }): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head>` +
    `<body>${input.body}</body></html>`
  );
}
