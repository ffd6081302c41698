import { createHash } from 'node:crypto';
import { PAGE_STYLE } from './page-style.js';

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

/** HTML that is already safe: built by `html` or a trusted constant. Anything else is escaped. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export const raw = (value: string): SafeHtml => new SafeHtml(value);

function interpolate(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(interpolate).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * Template tag that escapes every interpolated value (text and quoted attributes alike) unless it is
 * SafeHtml, so a page cannot forget to escape a user value. Arrays are joined; null/false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += interpolate(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** An inline script with its CSP hash; build once at module load (or per compiled link), never per request. */
export interface InlineScript {
  code: string;
  source: string;
}

export function inlineScript(code: string): InlineScript {
  return { code, source: `'sha256-${createHash('sha256').update(code).digest('base64')}'` };
}

const STYLE_SOURCE = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

/** Extra CSP sources per directive, added to the strict default (no scripts, our one stylesheet). */
export type CspExtra = Partial<Record<'script-src' | 'img-src' | 'frame-src' | 'connect-src' | 'form-action' | 'style-src', string>>;

export function buildCsp(scripts: InlineScript[] = [], extra: CspExtra = {}): string {
  const directives: Record<string, string> = {
    'default-src': "'none'",
    'style-src': STYLE_SOURCE,
    'img-src': 'https: data:',
    'base-uri': "'none'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
  if (scripts.length > 0) directives['script-src'] = scripts.map((s) => s.source).join(' ');
  for (const [name, sources] of Object.entries(extra)) {
    directives[name] = directives[name] ? `${directives[name]} ${sources}` : sources!;
  }
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${[...new Set(sources.split(' '))].join(' ')}`)
    .join('; ');
}

/** Response headers of a page with its own CSP (scripts by hash, framing, forms). */
export function pageHeaders(csp: string): Record<string, string> {
  return { ...PAGE_HEADERS, 'content-security-policy': csp };
}

export interface LayoutInput {
  title: string;
  body: SafeHtml;
  /** Extra head elements (meta tags), built with `html`. */
  head?: SafeHtml;
  scripts?: InlineScript[];
  /** Full-window layouts (frames) fill the window; every other page is one centred sheet. */
  full?: boolean;
  csp?: CspExtra;
}

export interface RenderedPage {
  html: string;
  csp: string;
}

/** The layout plus the CSP that fits it: inline scripts are allowed by hash only. */
export function renderPage(input: LayoutInput): RenderedPage {
  const scripts = input.scripts ?? [];
  const body = input.full ? html`<body class="rd-page full">${input.body}` : html`<body class="rd-page"><main class="sheet">${input.body}</main>`;
  const doc = html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark"><title>${input.title}</title>${input.head ?? ''}${raw(`<style>${PAGE_STYLE}</style>`)}</head>${body}${scripts.map((s) => raw(`<script>${s.code}</script>`))}</body></html>`;
  return { html: doc.value, csp: buildCsp(scripts, input.csp) };
}
