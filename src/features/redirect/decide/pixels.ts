import { html, inlineScript, type CspExtra, type InlineScript, type SafeHtml } from '../../../lib/html.js';
import { neutralPixelType, PIXEL_TAG, type PixelType } from '../../pixels/types.js';

interface PixelKind {
  /** The vendor's standard snippet; `t` is the tag as a JS string literal. */
  script: (t: string, tag: string) => string;
  /** The vendor's no-script image, when it has one. */
  image?: (tag: string) => string;
  hosts: string;
}

const js = (value: string) => JSON.stringify(value);
const loader = (src: string) => `(function(d){var s=d.createElement('script');s.async=true;s.src=${js(src)};d.head.appendChild(s)})(document);`;
const gtag = (t: string, tag: string) =>
  `window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag('js',new Date());gtag('config',${t});` +
  loader(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(tag)}`);
/** The common vendor shape: a global queue function, the vendor's script, then init/track calls. */
const queued = (name: string, src: string, calls: string) =>
  `(function(w,d){if(w.${name})return;var q=w.${name}=function(){q.callMethod?q.callMethod.apply(q,arguments):q.queue.push(arguments)};` +
  `q.queue=[];q.push=q;q.loaded=true;q.version='2.0';var s=d.createElement('script');s.async=true;s.src=${js(src)};d.head.appendChild(s)})(window,document);${calls}`;

/** The thirteen pixel types of the spec, by their neutral names (vendor in the comment). */
const KINDS: Record<PixelType, PixelKind> = {
  // Google Tag Manager container
  tagmanagerpixel: {
    script: (_t, tag) =>
      `window.dataLayer=window.dataLayer||[];dataLayer.push({'gtm.start':Date.now(),event:'gtm.js'});` +
      loader(`https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(tag)}`),
    hosts: 'https://www.googletagmanager.com',
  },
  // Google Analytics (gtag.js)
  analyticspixel: { script: gtag, hosts: 'https://www.googletagmanager.com' },
  // Facebook / Meta pixel
  socialnetworkpixel: {
    script: (t) => queued('fbq', 'https://connect.facebook.net/en_US/fbevents.js', `fbq('init',${t});fbq('track','PageView');`),
    image: (tag) => `https://www.facebook.com/tr?id=${tag}&ev=PageView&noscript=1`,
    hosts: 'https://connect.facebook.net',
  },
  // Google Ads conversion tag (gtag.js with an AW- id)
  adspixel: { script: gtag, hosts: 'https://www.googletagmanager.com' },
  // LinkedIn Insight tag
  professionalnetworkpixel: {
    script: (t) =>
      `window._linkedin_partner_id=${t};window._linkedin_data_partner_ids=window._linkedin_data_partner_ids||[];` +
      `window._linkedin_data_partner_ids.push(${t});` +
      loader('https://snap.licdn.com/li.lms-analytics/insight.min.js'),
    image: (tag) => `https://px.ads.linkedin.com/collect/?pid=${tag}&fmt=gif`,
    hosts: 'https://snap.licdn.com',
  },
  // Twitter / X pixel
  microblogpixel: {
    script: (t) => queued('twq', 'https://static.ads-twitter.com/uwt.js', `twq('config',${t});`),
    hosts: 'https://static.ads-twitter.com',
  },
  // AdRoll: the tag is "ADVERTISER_ID:PIXEL_ID"
  retargetingpixel: {
    script: (_t, tag) => {
      const [adv, pix] = tag.split(':');
      return (
        `window.adroll_adv_id=${js(adv!)};window.adroll_pix_id=${js(pix ?? adv!)};window.adroll_version='2.0';` +
        loader('https://s.adroll.com/j/roundtrip.js')
      );
    },
    hosts: 'https://s.adroll.com',
  },
  // Quora pixel
  questionsitepixel: {
    script: (t) => queued('qp', 'https://a.quora.com/qevents.js', `qp('init',${t});qp('track','ViewContent');`),
    image: (tag) => `https://q.quora.com/_/ad/${tag}/pixel?tag=ViewContent&noscript=1`,
    hosts: 'https://a.quora.com',
  },
  // Pinterest tag
  pinboard: {
    script: (t) => queued('pintrk', 'https://s.pinimg.com/ct/core.js', `pintrk('load',${t});pintrk('page');`),
    image: (tag) => `https://ct.pinterest.com/v3/?event=init&tid=${tag}&noscript=1`,
    hosts: 'https://s.pinimg.com',
  },
  // Microsoft Advertising UET
  searchengine: {
    script: (t) =>
      `(function(w,d){w.uetq=w.uetq||[];var s=d.createElement('script');s.async=true;s.src='https://bat.bing.com/bat.js';` +
      `s.onload=function(){var o={ti:${t}};o.q=w.uetq;w.uetq=new UET(o);w.uetq.push('pageLoad')};d.head.appendChild(s)})(window,document);`,
    image: (tag) => `https://bat.bing.com/action/0?ti=${tag}&Ver=2`,
    hosts: 'https://bat.bing.com',
  },
  // Snapchat pixel
  chatapp: {
    script: (t) => queued('snaptr', 'https://sc-static.net/scevent.min.js', `snaptr('init',${t},{});snaptr('track','PAGE_VIEW');`),
    hosts: 'https://sc-static.net',
  },
  // Reddit pixel
  forum: {
    script: (t) => queued('rdt', 'https://www.redditstatic.com/ads/pixel.js', `rdt('init',${t});rdt('track','PageVisit');`),
    hosts: 'https://www.redditstatic.com',
  },
  // TikTok pixel
  shortvideo: {
    script: (t) =>
      `(function(w,d){w.TiktokAnalyticsObject='ttq';var q=w.ttq=w.ttq||[];['page','track','identify'].forEach(function(m){` +
      `q[m]=function(){q.push([m].concat([].slice.call(arguments)))}});q.load=function(id){var s=d.createElement('script');s.async=true;` +
      `s.src='https://analytics.tiktok.com/i18n/pixel/events.js?sdkid='+id+'&lib=ttq';d.head.appendChild(s)};q.load(${t});q.page()})(window,document);`,
    hosts: 'https://analytics.tiktok.com',
  },
};

/** What a page needs to fire a link's pixels: the scripts (allowed by hash), no-script images and CSP sources. */
export interface PixelBundle {
  scripts: InlineScript[];
  images: SafeHtml;
  csp: CspExtra;
}

/**
 * Builds the bundle once per compiled link. Pixels of unknown types or with tags outside the safe
 * charset are skipped rather than rendered half-escaped.
 */
export function bundlePixels(pixels: Array<{ type: string; tag: string }>): PixelBundle | null {
  const usable = pixels.filter((p) => neutralPixelType(p.type) && PIXEL_TAG.test(p.tag));
  if (usable.length === 0) return null;
  const kinds = usable.map((p) => KINDS[neutralPixelType(p.type)!]);
  const hosts = [...new Set(kinds.map((k) => k.hosts))].join(' ');
  const images = usable.flatMap((p, i) => {
    const image = kinds[i]!.image;
    return image ? [html`<img src="${image(encodeURIComponent(p.tag))}" width="1" height="1" alt="">`] : [];
  });
  return {
    scripts: usable.map((p, i) => inlineScript(kinds[i]!.script(js(p.tag), p.tag))),
    images: images.length ? html`<noscript>${images}</noscript>` : html``,
    // Vendor scripts load their own helpers: 'strict-dynamic' trusts what the hashed snippets load.
    csp: { 'script-src': `'strict-dynamic' ${hosts}`, 'connect-src': 'https:', 'frame-src': 'https:' },
  };
}
