import { createHash } from 'node:crypto';
/** Tiny HTML helpers for the public pages: one escaper, one layout, one set of security headers. */
const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Escapes text for element content and quoted attribute values alike. */
export function escapeHtml(value) {
    return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}
/** Headers every public HTML page sends: no scripts, no sniffing, no full URLs leaked to third parties. */
export const PAGE_HEADERS = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
};
const STYLE = 'body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222;line-height:1.5}' +
    'a{color:#0b57d0}ul{padding-left:1.2rem}li{margin:.4rem 0}img{max-width:100%}' +
    'body.full{max-width:none;margin:0;padding:0;overflow:hidden}iframe.full{border:0;width:100%;height:calc(100vh - 1.75rem);display:block}' +
    '.bar{height:1.75rem;line-height:1.75rem;padding:0 .75rem;font-size:.8rem;text-align:right;background:#f4f4f4;' +
    'border-bottom:1px solid #ddd;box-sizing:border-box;overflow:hidden;white-space:nowrap}' +
    '.box{position:fixed;left:1rem;right:1rem;bottom:1rem;max-width:34rem;margin:auto;background:#fff;padding:1rem;' +
    'border-radius:.5rem;box-shadow:0 2px 14px rgba(0,0,0,.35)}.box[hidden]{display:none}' +
    '.btn{display:inline-block;padding:.5rem 1rem;border-radius:.3rem;background:#0b57d0;color:#fff;text-decoration:none;border:0}' +
    'input,textarea{display:block;width:100%;box-sizing:border-box;margin:.3rem 0 .8rem;padding:.4rem}' +
    '.error{color:#b3261e}.avatar{width:6rem;height:6rem;border-radius:50%;object-fit:cover}';
/**
 * The shared page layout. `title` is plain text (escaped here); `body` is HTML the caller built with
 * escapeHtml around every user-typed value.
 */
export function page(input) {
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8">' +
        '<meta name="viewport" content="width=device-width,initial-scale=1">' +
        `<title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head>` +
        `<body>${input.body}</body></html>`);
}
/** HTML that is already safe: built by `html` or a trusted constant. Anything else is escaped. */
export class SafeHtml {
    value;
    constructor(value) {
        this.value = value;
    }
    toString() {
        return this.value;
    }
}
export const raw = (value) => new SafeHtml(value);
function interpolate(value) {
    if (value instanceof SafeHtml)
        return value.value;
    if (Array.isArray(value))
        return value.map(interpolate).join('');
    if (value === null || value === undefined || value === false)
        return '';
    return escapeHtml(String(value));
}
/**
 * Template tag that escapes every interpolated value (text and quoted attributes alike) unless it is
 * SafeHtml, so a page cannot forget to escape a user value. Arrays are joined; null/false render nothing.
 */
export function html(strings, ...values) {
    let out = strings[0];
    for (let i = 0; i < values.length; i++)
        out += interpolate(values[i]) + strings[i + 1];
    return new SafeHtml(out);
}
export function inlineScript(code) {
    return { code, source: `'sha256-${createHash('sha256').update(code).digest('base64')}'` };
}
const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
export function buildCsp(scripts = [], extra = {}) {
    const directives = {
        'default-src': "'none'",
        'style-src': STYLE_SOURCE,
        'img-src': 'https: data:',
        'base-uri': "'none'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
    };
    if (scripts.length > 0)
        directives['script-src'] = scripts.map((s) => s.source).join(' ');
    for (const [name, sources] of Object.entries(extra)) {
        directives[name] = directives[name] ? `${directives[name]} ${sources}` : sources;
    }
    return Object.entries(directives).map(([name, sources]) => `${name} ${[...new Set(sources.split(' '))].join(' ')}`).join('; ');
}
/** Response headers of a page with its own CSP (scripts by hash, framing, forms). */
export function pageHeaders(csp) {
    return { ...PAGE_HEADERS, 'content-security-policy': csp };
}
/** The layout plus the CSP that fits it: inline scripts are allowed by hash only. */
export function renderPage(input) {
    const scripts = input.scripts ?? [];
    const doc = html `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${input.title}</title>${input.head ?? ''}${raw(`<style>${STYLE}</style>`)}</head><body${input.bodyClass ? raw(` class="${escapeHtml(input.bodyClass)}"`) : ''}>${input.body}${scripts.map((s) => raw(`<script>${s.code}</script>`))}</body></html>`;
    return { html: doc.value, csp: buildCsp(scripts, input.csp) };
}
//# sourceMappingURL=html.js.map