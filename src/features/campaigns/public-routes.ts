import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Feature } from '../../http/types.js';
import { html, pageHeaders, renderPage } from '../../lib/html.js';
import { findPublicList, type PublicList } from './public-service.js';
import { Rotator } from './rotator.js';

const header = (req: FastifyRequest, name: string) => String(req.headers[name] ?? '');

/** The rotator at /r/{slug} and the public list at /u/{username}/{slug}-{id}; no API key, HTML 404s. */
export const campaignPublicRoutes: Feature = async (app, { ctx }) => {
  const rotator = new Rotator(ctx);
  app.addHook('onClose', async () => rotator.close());

  app.get(
    '/r/:slug',
    {
      schema: {
        tags: ['public'],
        summary: 'Campaign rotator',
        params: Type.Object({ slug: Type.String() }),
        security: [],
        description:
          "302 to the campaign's links in turn (round-robin per node, up to 1000 links). Expired links are skipped; " +
          'password-protected links go through their short URL so the password is still asked. HEAD answers without turning or counting.',
      },
    },
    async (req, reply) => {
      const target = await rotator.next(req.params.slug, req.method === 'GET');
      if (!target) return reply.callNotFound();
      if (target.count && req.method === 'GET') {
        ctx.clicks.record('link', target.linkId, target.owner, {
          ip: req.ip,
          userAgent: header(req, 'user-agent'),
          referer: header(req, 'referer'),
          acceptLanguage: header(req, 'accept-language'),
        });
        ctx.clicks.journalNow(); // the click reaches the journal before its answer
      }
      return reply.header('cache-control', 'no-store').redirect(target.url, 302);
    },
  );

  app.get(
    '/u/:username/:tail',
    {
      schema: {
        tags: ['public'],
        summary: 'Public list of a campaign',
        params: Type.Object({ username: Type.String(), tail: Type.String() }),
        security: [],
        description:
          'HTML list of the campaign links when the campaign is public, `username` owns it and the tail is its current `{slug}-{id}`; 404 otherwise.',
      },
    },
    async (req, reply) => {
      const list = await findPublicList(ctx, req.params.username, req.params.tail);
      if (!list) return reply.callNotFound();
      return send(reply, render(list));
    },
  );
};

/** Every value is interpolated through `html`, which escapes it. */
function render(list: PublicList) {
  const items = list.links.map((link) => html`<li><a href="${link.href}" rel="nofollow noopener">${link.label}</a></li>`);
  const body = html`<h1>${list.name}</h1>${items.length > 0 ? html`<ul class="links">${items}</ul>` : html`<p>This campaign has no links yet.</p>`}`;
  return renderPage({ title: `${list.name} · Redirectory`, body });
}

function send(reply: FastifyReply, page: { html: string; csp: string }) {
  return reply.headers(pageHeaders(page.csp)).header('cache-control', 'no-cache').send(page.html);
}
