import { loadSharp, type Sharp } from './sharp.js';
import { fail } from '../../lib/errors.js';
import { checkHttpUrl } from '../../lib/urls.js';
import { LARGEST_LOGO } from './render.js';

export const DEFAULT_FOREGROUND = 'rgb(0,0,0)';
export const DEFAULT_BACKGROUND = 'rgb(255,255,255)';
export const MAX_LOGO_BYTES = 256 * 1024;
/** Logos are drawn at most LARGEST_LOGO pixels wide; a larger source only costs decode time. */
export const MAX_LOGO_SIDE = 1024;

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

const RGB = /^rgb\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*\)$/i;

export function parseRgb(value: string): Rgb | null {
  const m = RGB.exec(value.trim());
  if (!m) return null;
  const [r, g, b] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  return r > 255 || g > 255 || b > 255 ? null : { r, g, b };
}

/** `rgb(R,G,B)` with 0–255 each; stored normalized (no spaces, lower case). "" means the default. */
export function checkColor(value: string | undefined, field: string, fallback: string): string {
  if (value === undefined || value.trim() === '') return fallback;
  const rgb = parseRgb(value);
  if (!rgb) throw fail('qr_color_invalid', field);
  return `rgb(${rgb.r},${rgb.g},${rgb.b})`;
}

function luminance({ r, g, b }: Rgb): number {
  const lin = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Scanners need contrast between modules and background; below this ratio a code is unreadable. */
export function checkContrast(foreground: string, background: string): void {
  const [a, b] = [luminance(parseRgb(foreground)!), luminance(parseRgb(background)!)];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 1.5) throw fail('qr_colors_too_alike');
}

export type Logo = { kind: 'none' } | { kind: 'image'; data: Buffer; uri: string } | { kind: 'url'; href: string };

const DATA_URI = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/\s]*={0,2})$/i;
const LOGO_RULE =
  'The field "logo" must be a data:image/png or data:image/jpeg base64 URI (at most 256 KB and 1024×1024 pixels) or an http(s) URL of a png or jpg image.';

/** A stored logo value: a data URI we decoded and checked, an http(s) URL, or "". */
export function logoOf(stored: string): Logo {
  if (stored === '') return { kind: 'none' };
  const m = DATA_URI.exec(stored);
  if (m) return { kind: 'image', data: Buffer.from(m[2]!, 'base64'), uri: stored };
  return { kind: 'url', href: stored };
}

/**
 * Validates a logo and returns the value to store. The server never fetches a client's URL: URLs are
 * only referenced from the SVG; data URIs must decode to a real png or jpeg, and are stored shrunk to
 * the largest size they are ever drawn, so no render decodes more than that.
 */
export async function checkLogo(value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return '';
  const m = DATA_URI.exec(trimmed);
  if (!m) {
    if (!/^https?:\/\//i.test(trimmed)) throw fail('qr_logo_invalid', LOGO_RULE);
    return checkHttpUrl(trimmed, 'The field "logo"').href;
  }
  const data = Buffer.from(m[2]!, 'base64');
  if (data.length > MAX_LOGO_BYTES) throw fail('qr_logo_invalid', 'The logo image is larger than 256 KB.');
  const declared = m[1]!.toLowerCase() === 'png' ? 'png' : 'jpeg';
  // Only the header is read here, so no pixel limit: a too-large image gets the message that names the limit.
  const sharp = await loadSharp();
  const meta = await sharp(data, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta || meta.format !== declared) throw fail('qr_logo_invalid', `The logo is not a valid ${declared} image.`);
  if (!meta.width || !meta.height || meta.width > MAX_LOGO_SIDE || meta.height > MAX_LOGO_SIDE) {
    throw fail('qr_logo_invalid', `The logo image must be at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels.`);
  }
  const stored = await decodeWhole(sharp, data, declared, Math.max(meta.width, meta.height));
  return `data:image/${declared};base64,${stored.toString('base64')}`;
}

/** Decodes every pixel (a header that reads says nothing of them, and each render would fail on them); returns the bytes to store. */
async function decodeWhole(sharp: Sharp, data: Buffer, format: 'png' | 'jpeg', side: number): Promise<Buffer> {
  try {
    if (side > LARGEST_LOGO) return await shrink(sharp, data, format);
    await sharp(data).raw().toBuffer();
    return data;
  } catch {
    throw fail('qr_logo_invalid', `The logo is not a valid ${format} image.`);
  }
}

function shrink(sharp: Sharp, data: Buffer, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp(data).resize(LARGEST_LOGO, LARGEST_LOGO, { fit: 'inside' });
  return (format === 'png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
}
