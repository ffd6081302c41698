import type { Feature } from '../../http/types.js';
import { ClientBudget, sendTooMany } from '../redirect/serve/client-budget.js';
import { ImageQuery, SlugParam } from './schema.js';
import { clampSize, DEFAULT_SIZE, qrImage, readyImage, scanTarget, SIZE_STEPS } from './serve.js';

const tags = ['public'];

/** An image document may show its embedded or referenced logo and nothing else: no scripts, no navigation. */
const SVG_CSP = "default-src 'none'; img-src data: https: http:; style-src 'unsafe-inline'; sandbox";

/** Images a client may have rendered (not found in the image cache) per minute; cached images are always served. */
export const RENDER_BUDGET = 120;

/** The public side of QR codes: images at /qr/{slug} and the scan-counting address of link codes. */
export const qrPublicRoutes: Feature = async (app, { ctx }) => {
  const caches = app.qrCaches; // the app's (cache.ts: qrCachesPlugin)
  const renders = new ClientBudget('qr-render', RENDER_BUDGET, 60, ctx.counters);
  app.get(
    '/qr/:slug',
    {
      schema: {
        tags,
        security: [],
        summary: 'The image of a QR code (no API key)',
        description:
          `PNG by default, SVG with ?format=svg; ?size= in pixels, served at the nearest of ${SIZE_STEPS.join(', ')} ` +
          `(default ${DEFAULT_SIZE}), so the image cache bounds the rendering work. A client (an IP address; for IPv6 its /64) ` +
          `may have ${RENDER_BUDGET} images a minute rendered that are not in the image cache (per process); past that, ` +
          'uncached images answer a 429 page with Retry-After while cached ones are still served. A data-URI logo is ' +
          'composed into both; a logo given as a URL appears in the SVG only (the server never fetches it; browsers load it ' +
          'only when the SVG is opened as a document, not through <img>). Unknown codes answer 404.',
        params: SlugParam,
        querystring: ImageQuery,
      },
    },
    async (req, reply) => {
      const format = req.query.format ?? 'png';
      const size = clampSize(req.query.size);
      let ready = readyImage(caches, req.params.slug, format, size);
      if (ready === undefined) {
        const wait = renders.take(req.ip);
        if (wait > 0) return sendTooMany(reply, wait);
        ready = qrImage(ctx, caches, req.params.slug, format, size);
      }
      const image = await ready;
      if (!image) return reply.callNotFound();
      reply.header('cache-control', 'public, max-age=300').header('x-content-type-options', 'nosniff');
      if (format === 'svg') reply.header('content-security-policy', SVG_CSP);
      return reply.type(image.type).send(image.body);
    },
  );

  app.get(
    '/qr/:slug/scan',
    {
      schema: {
        tags,
        security: [],
        summary: 'Tracking address encoded in link QR codes: 302 to the destination',
        description: 'Each GET counts a scan (HEAD does not; bots are redirected but not counted). Codes of other types answer 404.',
        params: SlugParam,
      },
    },
    async (req, reply) => {
      const target = await scanTarget(ctx, caches, req.params.slug);
      if (!target) return reply.callNotFound();
      if (req.method === 'GET') {
        ctx.clicks.record('qr', target.id, target.owner, {
          ip: req.ip,
          userAgent: req.headers['user-agent'] ?? '',
          referer: req.headers.referer ?? '',
          acceptLanguage: req.headers['accept-language'] ?? '',
        });
        ctx.clicks.journalNow(); // the click reaches the journal before its answer
      }
      // Every scan must reach us to be counted, and the destination may change.
      reply.header('cache-control', 'no-store');
      return reply.redirect(target.destination, 302);
    },
  );
};
