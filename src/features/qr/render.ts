import QRCode from 'qrcode';
import type { OverlayOptions } from 'sharp';
import { loadSharp, type Sharp } from './sharp.js';
import { escapeHtml } from '../../lib/html.js';
import type { Logo, Rgb } from './style.js';

/** The quiet zone scanners need around the symbol, in modules. */
const QUIET = 4;
/** The logo's share of the image width, and the background pad around it. */
const LOGO_SHARE = 0.21;
const PAD_SHARE = 0.02;
/** The largest image ever rendered (?size= is served at most this), and so the largest a logo is ever drawn. */
export const MAX_SIZE = 2048;
export const LARGEST_LOGO = Math.ceil(MAX_SIZE * LOGO_SHARE);

export interface QrStyle {
  payload: string;
  foreground: Rgb;
  background: Rgb;
  logo: Logo;
}

interface Matrix {
  /** Modules per side, quiet zone included. */
  units: number;
  dark(x: number, y: number): boolean;
}

/** A centre logo hides modules: 'H' recovers up to 30% of them, 'M' is enough without one. */
function matrixOf(style: QrStyle): Matrix {
  const ecc = style.logo.kind === 'none' ? 'M' : 'H';
  const { modules } = QRCode.create(style.payload, { errorCorrectionLevel: ecc });
  const n = modules.size;
  return {
    units: n + 2 * QUIET,
    dark: (x, y) => x >= QUIET && y >= QUIET && x < n + QUIET && y < n + QUIET && modules.get(y - QUIET, x - QUIET) === 1,
  };
}

/** Throws when the payload cannot fit a QR code at the strongest error correction (used by validation). */
export function assertEncodable(payload: string): void {
  QRCode.create(payload, { errorCorrectionLevel: 'H' });
}

/** Where the logo and its pad sit, in the unit the caller draws in (pixels or modules). */
function logoBox(width: number) {
  const logo = width * LOGO_SHARE;
  const pad = width * PAD_SHARE;
  return { logo, pad, padStart: (width - logo) / 2 - pad, padSide: logo + 2 * pad, logoStart: (width - logo) / 2 };
}

const css = ({ r, g, b }: Rgb) => `rgb(${r},${g},${b})`;

export function renderSvg(style: QrStyle, size: number): string {
  const m = matrixOf(style);
  let path = '';
  for (let y = 0; y < m.units; y++) {
    for (let x = 0; x < m.units; x++) {
      if (!m.dark(x, y)) continue;
      let run = 1;
      while (x + run < m.units && m.dark(x + run, y)) run++;
      path += `M${x} ${y}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  const u = m.units;
  let logo = '';
  if (style.logo.kind !== 'none') {
    const box = logoBox(u);
    const href = escapeHtml(style.logo.kind === 'image' ? style.logo.uri : style.logo.href);
    logo =
      `<rect x="${box.padStart}" y="${box.padStart}" width="${box.padSide}" height="${box.padSide}" fill="${css(style.background)}"/>` +
      `<image href="${href}" x="${box.logoStart}" y="${box.logoStart}" width="${box.logo}" height="${box.logo}" preserveAspectRatio="xMidYMid meet"/>`;
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" ` +
    `viewBox="0 0 ${u} ${u}" shape-rendering="crispEdges"><rect width="${u}" height="${u}" fill="${css(style.background)}"/>` +
    `<path fill="${css(style.foreground)}" d="${path}"/>${logo}</svg>`
  );
}

/**
 * Rasterizes the modules directly (no SVG round-trip), then composes the logo when it is an embedded image.
 * Pixel rows within one row of modules are equal, so each is drawn once and copied (natively) down.
 */
export async function renderPng(style: QrStyle, size: number): Promise<Buffer> {
  const m = matrixOf(style);
  // Whole pixels per module keep the edges sharp; the spare pixels widen the quiet zone.
  const module = size >= m.units ? Math.floor(size / m.units) : size / m.units;
  const offset = Math.floor((size - module * m.units) / 2);
  const cell = Array.from({ length: size }, (_, p) => Math.floor((p - offset) / module));
  const pixels = Buffer.alloc(size * size * 3);
  const { foreground: fg, background: bg } = style;
  const rowBytes = size * 3;
  for (let y = 0; y < size; y++) {
    if (y > 0 && cell[y] === cell[y - 1]) {
      pixels.copyWithin(y * rowBytes, (y - 1) * rowBytes, y * rowBytes);
      continue;
    }
    for (let x = 0; x < size; x++) {
      const c = m.dark(cell[x]!, cell[y]!) ? fg : bg;
      const i = y * rowBytes + x * 3;
      pixels[i] = c.r;
      pixels[i + 1] = c.g;
      pixels[i + 2] = c.b;
    }
  }
  const sharp = await loadSharp();
  const image = sharp(pixels, { raw: { width: size, height: size, channels: 3 } });
  if (style.logo.kind === 'image') image.composite(await logoLayers(sharp, style.logo.data, bg, size, module * m.units));
  // A low zlib level: a code is mostly flat colour, so it costs few bytes and saves most of the encoding time.
  return image.png({ compressionLevel: 3 }).toBuffer();
}

/** The logo is sized against the drawn symbol (`width`), which the quiet zone may leave smaller than the image. */
async function logoLayers(sharp: Sharp, data: Buffer, bg: Rgb, size: number, width: number): Promise<OverlayOptions[]> {
  const box = logoBox(width);
  const side = Math.max(Math.round(box.logo), 1);
  const padSide = Math.max(Math.round(box.padSide), 1);
  // Handed over as raw pixels: an intermediate PNG would be encoded only to be decoded again.
  const logo = await sharp(data, { limitInputPixels: 4096 * 4096 })
    .resize(side, side, { fit: 'contain', background: { ...bg, alpha: 0 } })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const padAt = Math.round((size - padSide) / 2);
  const logoAt = Math.round((size - side) / 2);
  return [
    { input: { create: { width: padSide, height: padSide, channels: 3, background: bg } }, left: padAt, top: padAt },
    { input: logo.data, raw: { width: logo.info.width, height: logo.info.height, channels: 4 }, left: logoAt, top: logoAt },
  ];
}
