import { html, inlineScript, renderPage, type CspExtra, type RenderedPage, type SafeHtml } from '../../../lib/html.js';
import { httpHref } from '../../../lib/urls.js';
import type { CompiledLink } from '../resolve/compile.js';

/**
 * A link's own pages. Destinations and every typed value go through `html` (escaped); the inline
 * scripts are constants that read the destination from the page's `#go` link, so no user value ever
 * reaches a script.
 */
const FORWARD = inlineScript("setTimeout(function(){location.replace(document.getElementById('go').href)},800)");
const COUNTDOWN = inlineScript(
  "(function(){var c=document.getElementById('count'),n=+c.textContent,t=setInterval(function(){n--;c.textContent=String(Math.max(n,0));" +
    "if(n<=0){clearInterval(t);location.href=document.getElementById('go').href}},1000)})()",
);
const CLOSE = inlineScript("document.getElementById('close').addEventListener('click',function(){document.getElementById('cta').hidden=true})");

export const SPLASH_SECONDS = 5;
const FRAME_CSP: CspExtra = { 'frame-src': 'http: https:' };

function hostOf(href: string): string {
  return new URL(href).host;
}

function mergeCsp(...parts: Array<CspExtra | undefined>): CspExtra {
  const out: Record<string, string> = {};
  for (const part of parts) {
    for (const [name, sources] of Object.entries(part ?? {})) out[name] = out[name] ? `${out[name]} ${sources}` : sources!;
  }
  return out;
}

/** Every page of a link fires its pixels; `scripts`/`csp` are the page's own on top. */
function linkPage(
  link: CompiledLink,
  input: { title: string; body: SafeHtml; head?: SafeHtml; scripts?: (typeof FORWARD)[]; csp?: CspExtra; full?: boolean },
): RenderedPage {
  const pixels = link.pixels;
  return renderPage({
    title: input.title,
    head: input.head,
    body: pixels ? html`${input.body}${pixels.images}` : input.body,
    scripts: [...(pixels?.scripts ?? []), ...(input.scripts ?? [])],
    csp: mergeCsp(pixels?.csp, input.csp),
    full: input.full,
  });
}

/** A direct link with pixels: fire them, then forward (script, or meta refresh without scripts). */
export function forwardPage(link: CompiledLink, destination: string): RenderedPage {
  return linkPage(link, {
    title: link.meta.title || 'Redirecting…',
    head: html`<noscript><meta http-equiv="refresh" content="1;url=${destination}"></noscript>`,
    body: html`<p>Taking you to <a id="go" href="${destination}" rel="noopener">${hostOf(destination)}</a>…</p>`,
    scripts: [FORWARD],
  });
}

/**
 * The slim bar above every framed destination: a site that refuses framing (X-Frame-Options, CSP
 * frame-ancestors) leaves the frame empty, and nothing tells us so, so the way out is always there.
 */
function openBar(destination: string): SafeHtml {
  return html`<div class="bar"><a href="${destination}" target="_top" rel="noopener">Open the page</a></div>`;
}

export function framePage(link: CompiledLink, destination: string): RenderedPage {
  if (link.unframeable?.has(destination)) return plainLinkPage(link, destination);
  return linkPage(link, {
    title: link.meta.title || hostOf(destination),
    body: html`${openBar(destination)}<iframe class="full" src="${destination}" title="${link.meta.title || hostOf(destination)}" allowfullscreen></iframe>`,
    csp: FRAME_CSP,
    full: true,
  });
}

/** Our own API, docs and admin pages are never framed: the visitor gets a plain link to them. */
function plainLinkPage(link: CompiledLink, destination: string): RenderedPage {
  return linkPage(link, {
    title: link.meta.title || 'Continue',
    body: html`<h1>${link.meta.title || 'Continue'}</h1><p>This page cannot be shown inside a frame. Continue to
<a id="go" href="${destination}" rel="noopener">${destination}</a>.</p>`,
  });
}

export function splashPage(link: CompiledLink, destination: string): RenderedPage {
  const splash = link.splash;
  const image = splash ? httpHref(splash.image) : null;
  const content = splash
    ? html`<h1>${splash.title || link.meta.title || 'Just a moment'}</h1>${image ? html`<p><img src="${image}" alt=""></p>` : ''}
${splash.content
  .split(/\r?\n\s*\r?\n/)
  .filter((p) => p.trim())
  .map((p) => html`<p>${p}</p>`)}`
    : html`<h1>${link.meta.title || 'You are leaving for another site'}</h1>
${link.meta.description ? html`<p>${link.meta.description}</p>` : ''}`;
  return linkPage(link, {
    title: splash?.title || link.meta.title || 'Redirecting…',
    head: html`<noscript><meta http-equiv="refresh" content="${SPLASH_SECONDS};url=${destination}"></noscript>`,
    body: html`${content}<p>Taking you to <a id="go" href="${destination}" rel="noopener">${hostOf(destination)}</a> in
<span id="count">${SPLASH_SECONDS}</span> seconds.</p><p><a class="btn" href="${destination}" rel="noopener">Continue now</a></p>`,
    scripts: [COUNTDOWN],
  });
}

/** The destination framed, with the account's call-to-action box over it. */
export function overlayPage(link: CompiledLink, destination: string): RenderedPage {
  if (link.unframeable?.has(destination)) return plainLinkPage(link, destination);
  const overlay = link.overlay!;
  const mail = overlay.type === 'contact' && overlay.email ? overlay.email : null;
  const box = mail ? contactForm(overlay.message, overlay.button_text, mail) : messageBox(overlay);
  return linkPage(link, {
    title: link.meta.title || hostOf(destination),
    body: html`${openBar(destination)}<iframe class="full" src="${destination}" title="${link.meta.title || hostOf(destination)}" allowfullscreen></iframe>
<div class="box" id="cta" role="dialog" aria-label="Call to action">${box}<p class="row"><button id="close" class="close" type="button">Close</button></p></div>`,
    scripts: [CLOSE],
    csp: mergeCsp(FRAME_CSP, mail ? { 'form-action': 'mailto:' } : undefined),
    full: true,
  });
}

function messageBox(overlay: { type: string; message: string; button_text: string; button_link: string }): SafeHtml {
  const href = httpHref(overlay.button_link);
  const label = overlay.button_text || (overlay.type === 'contact' ? 'Contact us' : 'Learn more');
  return html`<p>${overlay.message}</p>${href ? html`<p><a class="btn" href="${href}" target="_top" rel="noopener">${label}</a></p>` : ''}`;
}

/**
 * A contact overlay with an e-mail address gets a form that opens the visitor's mail client: a GET to
 * mailto: turns its fields into `?subject=…&body=…`, the form every browser hands over, and nothing is
 * posted to any server. The plain mailto: link below it works where forms to mailto: do not.
 */
function contactForm(message: string, buttonText: string, mail: string): SafeHtml {
  return html`<p>${message}</p><form method="get" action="mailto:${mail}" target="_top">
<label for="cta-subject">Subject</label><input id="cta-subject" name="subject">
<label for="cta-body">Message</label><textarea id="cta-body" name="body" rows="3"></textarea>
<button class="btn" type="submit">${buttonText || 'Send'}</button></form>
<p>Or write to <a href="mailto:${mail}" target="_top">${mail}</a>.</p>`;
}

/** What social crawlers get instead of the redirect: the link's meta as Open Graph and Twitter card tags. */
export function ogPage(link: CompiledLink): RenderedPage {
  const title = link.meta.title || link.shortUrl;
  const { description, image } = link.meta;
  return renderPage({
    title,
    head: html`<meta property="og:type" content="website"><meta property="og:title" content="${title}">
<meta property="og:url" content="${link.shortUrl}">${
      description
        ? html`<meta property="og:description" content="${description}">
<meta name="description" content="${description}">`
        : ''
    }${image ? html`<meta property="og:image" content="${image}">` : ''}
<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}"><meta name="twitter:title" content="${title}">
${description ? html`<meta name="twitter:description" content="${description}">` : ''}${image ? html`<meta name="twitter:image" content="${image}">` : ''}`,
    body: html`<h1>${title}</h1>${description ? html`<p>${description}</p>` : ''}<p><a href="${link.shortUrl}">${link.shortUrl}</a></p>`,
  });
}
