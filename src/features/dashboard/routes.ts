import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '../../http/types.js';
import { errorPage } from '../../lib/error-pages.js';
import { normalizeHost } from '../../lib/hosts.js';
import { PAGE_HEADERS } from '../../lib/html.js';
import { loadAssets, pickEncoding, type Asset } from './assets.js';

/**
 * The dashboard's own policy: its scripts and styles are files from /app only; images may also be https
 * (a link's meta image in the social-card preview) or data: (a QR logo being chosen, the live QR preview).
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = { ...PAGE_HEADERS, 'content-security-policy': DASHBOARD_CSP };
const NOT_BUILT = 'The dashboard is not built on this server: run `npm run build` (npm start does it) and restart.';

/**
 * `/app` and everything under it: built files, and index.html for every other path (the app's own routes).
 * Only on the dashboard's host (DASHBOARD_URL's, else BASE_URL's), where sessions work; other hosts are sent there.
 */
export const dashboardRoutes: Feature = async (app, { ctx }) => {
  let assets: Map<string, Asset> | null = null;
  const handler = async (req: FastifyRequest, reply: FastifyReply) => {
    if (normalizeHost(req.host) !== ctx.config.DASHBOARD_HOST) return reply.redirect(`${ctx.config.DASHBOARD_ORIGIN}${req.url}`, 302);
    assets ??= loadAssets(); // read at the first request; a server started before the build finds it later
    if (!assets) return reply.code(503).headers(PAGE_HEADERS).header('cache-control', 'no-store').send(errorPage(503, NOT_BUILT).html);
    const path = (req.params as { '*'?: string })['*'] ?? '';
    const file = assets.get(path);
    // A missing hashed file is a 404, never the page: a stale tab would otherwise run HTML as a script.
    if (!file && path.startsWith('assets/')) return reply.callNotFound();
    const asset = file ?? assets.get('index.html')!;
    const { body, encoding } = pickEncoding(asset, String(req.headers['accept-encoding'] ?? ''));
    reply
      .headers(asset.type.startsWith('text/html') ? HEADERS : { 'x-content-type-options': 'nosniff' })
      .header('content-type', asset.type)
      .header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      .header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  };
  const schema = { hide: true };
  app.get('/app', { schema }, handler);
  app.get('/app/*', { schema }, handler);
};
