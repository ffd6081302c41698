import { html, renderPage, type RenderedPage, type SafeHtml } from '../../../lib/html.js';
import { formatTimestamp } from '../../../lib/time.js';
import { httpHref } from '../../../lib/urls.js';
import type { BioRow } from '../../../db/types.js';
import { bioLinks } from '../../custom-pages/bio-service.js';

/** The pages of the public side that are not a link's own content: errors, the password form, bio pages. */
const simple = (title: string, body: SafeHtml): RenderedPage => renderPage({ title: `${title} · Redirectory`, body });

/** The site root: what this server is, and the way to its dashboard (`/app` on any host leads there). */
export const LANDING_PAGE = renderPage({
  title: 'Redirectory',
  body: html`<h1>Redirectory</h1>
<p>This address serves short links. Redirectory is a self-hosted link shortener: its owners make short links, bio pages
and QR codes here and see how often they are opened. Open a short link to be taken to its destination.</p>
<p><a class="btn" href="/app">Sign in to the dashboard</a></p>`,
});

export function expiredPage(link: { shortUrl: string; expiresAt: number | null }, exhausted = false): RenderedPage {
  const when = exhausted ? 'reached its visit limit' : `expired on ${formatTimestamp(new Date(link.expiresAt ?? 0))} UTC`;
  return simple(
    'Link expired',
    html`<h1>This link has expired</h1>
<p>The short link <strong>${link.shortUrl}</strong> ${when} and no longer leads anywhere.</p>
<p>If you were given this link, ask its sender for a current one.</p>`,
  );
}

export function passwordPage(link: { alias: string; meta: { title: string } }, message: string): RenderedPage {
  return renderPage({
    title: 'Password required · Redirectory',
    body: html`<h1>Password required</h1>
<p>${link.meta.title ? html`<strong>${link.meta.title}</strong> is` : 'This link is'} protected. Enter its password to continue.</p>
${message ? html`<p class="error" role="alert">${message}</p>` : ''}
<form method="post" action="/${encodeURIComponent(link.alias)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required autofocus>
<button class="btn" type="submit">Continue</button>
</form>`,
  });
}

/**
 * The answer to the password form's POST once the link may be opened: a page that continues to the link by a
 * same-origin navigation of its own. A redirect would not do: the form page's CSP `form-action 'self'` governs
 * the form submission's whole redirect chain, so browsers block the link's own redirect to its destination.
 */
export function continuePage(link: { alias: string }): RenderedPage {
  const self = `/${encodeURIComponent(link.alias)}`;
  return renderPage({
    title: 'Opening the link · Redirectory',
    head: html`<meta http-equiv="refresh" content="0;url=${self}">`,
    body: html`<h1>Opening the link…</h1><p><a id="go" href="${self}">Continue</a></p>`,
  });
}

export function throttledPage(seconds: number): RenderedPage {
  const minutes = Math.max(Math.ceil(seconds / 60), 1);
  return simple(
    'Too many attempts',
    html`<h1>Too many attempts</h1>
<p>That password was wrong too many times. Try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.</p>`,
  );
}

/** Too many guesses of link passwords are being checked on this server right now: nothing was checked. */
export function busyPage(): RenderedPage {
  return simple(
    'Too many attempts',
    html`<h1>Too many attempts</h1>
<p>Too many passwords are being checked right now. Try again in a moment.</p>`,
  );
}

/** Stored entries are re-checked: only strings reach the page, whatever the row holds. */
function linksOf(bio: BioRow): Array<{ title: string; url: string }> {
  return bioLinks(bio)
    .filter((l) => l && typeof l === 'object')
    .map((l) => ({ title: typeof l.title === 'string' ? l.title : '', url: typeof l.url === 'string' ? l.url : '' }));
}

/** A bio page, rendered once per cache fill; links that are not http(s) show as text, never as href. */
export function bioPage(bio: BioRow): RenderedPage {
  const avatar = httpHref(bio.avatar);
  const items = linksOf(bio).map((l) => {
    const href = httpHref(l.url);
    const label = l.title || l.url;
    return href ? html`<li><a href="${href}" rel="nofollow noopener">${label}</a></li>` : html`<li>${label}</li>`;
  });
  return renderPage({
    title: bio.name || bio.alias,
    head: bio.description ? html`<meta name="description" content="${bio.description}">` : undefined,
    body: html`<div class="bio">${avatar ? html`<img class="avatar" src="${avatar}" alt="">` : ''}
<h1>${bio.name || bio.alias}</h1>
${bio.description ? html`<p>${bio.description}</p>` : ''}</div>
<ul class="links">${items}</ul>`,
  });
}
