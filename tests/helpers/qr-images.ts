import { randomBytes } from 'node:crypto';
import jsQRModule from 'jsqr';
import sharp from 'sharp';
import { request } from 'undici';
import { TEST_HOST, type TestServer } from './server.js';

// jsqr is CommonJS whose typings declare an ES default export; under NodeNext the callable is `.default`.
const jsQR = jsQRModule.default;

export interface ImageReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A public request whose body stays bytes (the server helper reads bodies as text). */
export async function fetchImage(server: TestServer, path: string, method = 'GET'): Promise<ImageReply> {
  const res = await request(`${server.url}${path}`, { method: method as 'GET', headers: { host: TEST_HOST } });
  return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
}

/** Reads the QR payload out of an image the way a phone would: from its pixels. */
export async function decodeImage(image: Buffer): Promise<string | null> {
  const found = await decodeRaw(sharp(image));
  if (found !== null) return found;
  // jsQR's local thresholds can lose the finder patterns of a very large image beside a noisy logo; a
  // camera sees a printed code at a few hundred pixels, so a large image is also read scaled down to 512.
  const { width = 0 } = await sharp(image).metadata();
  return width > 1000 ? decodeRaw(sharp(image).resize(512)) : null;
}

async function decodeRaw(image: sharp.Sharp): Promise<string | null> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ?? null;
}

/** Rasterizes an SVG with sharp, then decodes it. */
export async function decodeSvg(svg: Buffer): Promise<string | null> {
  return decodeImage(await sharp(svg).png().toBuffer());
}

/** A small two-tone logo as a data URI, like a client would upload. */
export async function makeLogo(format: 'png' | 'jpeg' = 'png'): Promise<string> {
  const ring = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96"><circle cx="48" cy="48" r="44" fill="#d22"/>' +
      '<circle cx="48" cy="48" r="20" fill="#fff"/></svg>',
  );
  const image = sharp(ring);
  const bytes = format === 'png' ? await image.png().toBuffer() : await image.flatten({ background: '#ffffff' }).jpeg().toBuffer();
  return `data:image/${format};base64,${bytes.toString('base64')}`;
}

/** A PNG of random pixels: it barely compresses, so its bytes grow with its area (~3 bytes a pixel). */
export async function noiseLogo(side: number): Promise<string> {
  const pixels = randomBytes(side * side * 3);
  const png = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** The two-tone ring of makeLogo drawn at `side` pixels: many pixels, few bytes. */
export async function largeLogo(side: number): Promise<string> {
  const ring = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 96 96"><circle cx="48" cy="48" r="44" fill="#d22"/>` +
      '<circle cx="48" cy="48" r="20" fill="#fff"/></svg>',
  );
  return `data:image/png;base64,${(await sharp(ring).png().toBuffer()).toString('base64')}`;
}

/** Width and height of the logo embedded in a served SVG. */
export async function embeddedLogoSize(svg: string): Promise<[number, number]> {
  const href = /<image href="data:image\/[a-z]+;base64,([^"]+)"/.exec(svg);
  if (!href) throw new Error('the SVG embeds no logo');
  const meta = await sharp(Buffer.from(href[1]!, 'base64')).metadata();
  return [meta.width!, meta.height!];
}

/** A png or jpeg of `side` pixels cut short: its header (format, size) reads, its pixels do not decode. */
export async function truncatedLogo(format: 'png' | 'jpeg', side: number): Promise<string> {
  const pixels = randomBytes(side * side * 3);
  const image = sharp(pixels, { raw: { width: side, height: side, channels: 3 } }).resize(side * 4, side * 4, { kernel: 'nearest' });
  const whole = await (format === 'png' ? image.png() : image.jpeg({ quality: 60 })).toBuffer();
  const cut = whole.subarray(0, Math.floor(whole.length / 2));
  const meta = await sharp(cut).metadata();
  if (meta.format !== format || meta.width !== side * 4) throw new Error('the cut image lost its header');
  return `data:image/${format};base64,${cut.toString('base64')}`;
}
