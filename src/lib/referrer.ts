/** Where a visit came from: the Referer header reduced to a host, and the social network or search engine behind it. */

/** Label of visits without a usable Referer (typed, bookmarked, e-mail clients, apps, stripped by policy). */
export const DIRECT_REFERRER = 'direct';

/** Social networks counted in socialCount, with the hosts (and their subdomains) that refer for them. */
export const SOCIAL_NETWORKS: Record<string, string[]> = {
  facebook: ['facebook.com', 'fb.com', 'fb.me', 'messenger.com'],
  twitter: ['twitter.com', 't.co', 'x.com'],
  instagram: ['instagram.com'],
  linkedin: ['linkedin.com', 'lnkd.in'],
  reddit: ['reddit.com', 'redd.it'],
  pinterest: ['pinterest.com', 'pin.it'],
  youtube: ['youtube.com', 'youtu.be'],
  tiktok: ['tiktok.com'],
  whatsapp: ['whatsapp.com', 'wa.me'],
  telegram: ['telegram.org', 'telegram.me', 't.me'],
  snapchat: ['snapchat.com'],
  tumblr: ['tumblr.com'],
  vk: ['vk.com'],
  discord: ['discord.com', 'discordapp.com'],
  quora: ['quora.com'],
};

/** Search engines, with the hosts (and their subdomains) that refer for them; never counted as social. */
export const SEARCH_ENGINES: Record<string, string[]> = {
  google: ['google.com'],
  bing: ['bing.com'],
  duckduckgo: ['duckduckgo.com'],
  yahoo: ['yahoo.com', 'yahoo.co.jp'],
  yandex: ['yandex.ru', 'yandex.com', 'ya.ru'],
  baidu: ['baidu.com'],
  ecosia: ['ecosia.org'],
  qwant: ['qwant.com'],
  startpage: ['startpage.com'],
  brave: ['search.brave.com'],
  naver: ['naver.com'],
  seznam: ['seznam.cz'],
  ask: ['ask.com'],
};

// These refer from every national domain: google.de, google.co.uk, yandex.com.tr, pinterest.fr, …
const NATIONAL = /(?:^|\.)(google|yandex|pinterest)\.(?:com?\.)?[a-z]{2,3}$/;
const MAX_HOST = 253;

const hostMap = (groups: Record<string, string[]>) =>
  new Map(Object.entries(groups).flatMap(([name, hosts]) => hosts.map((host) => [host, name] as const)));
const socialByHost = hostMap(SOCIAL_NETWORKS);
const searchByHost = hostMap(SEARCH_ENGINES);

/** Lower-case host of the Referer without a leading "www."; DIRECT_REFERRER when absent or not a URL. */
export function referrerHost(referer: string): string {
  if (!referer) return DIRECT_REFERRER;
  let host: string;
  try {
    host = new URL(referer).hostname.toLowerCase();
  } catch {
    return DIRECT_REFERRER;
  }
  if (host.startsWith('www.')) host = host.slice(4);
  return host && host.length <= MAX_HOST ? host : DIRECT_REFERRER;
}

/** The name a host or one of its parent domains has in `byHost`, national domains included; null otherwise. */
function lookUp(host: string, byHost: Map<string, string>): string | null {
  const national = NATIONAL.exec(host)?.[1];
  if (national && [...byHost.values()].includes(national)) return national;
  // Walk up the labels: l.facebook.com, facebook.com.
  for (let rest = host; rest.includes('.'); rest = rest.slice(rest.indexOf('.') + 1)) {
    const name = byHost.get(rest);
    if (name) return name;
  }
  return null;
}

/** The social network a referrer host belongs to (m.facebook.com → facebook), or null; search engines are not social. */
export const socialNetwork = (host: string): string | null => lookUp(host, socialByHost);

/** The search engine a referrer host belongs to (google.co.uk → google, de.search.yahoo.com → yahoo), or null. */
export const searchEngine = (host: string): string | null => lookUp(host, searchByHost);

export type ReferrerKind = 'direct' | 'search' | 'social' | 'other';

/** What kind of place a referrer host (as referrerHost gives it) is. */
export function referrerKind(host: string): ReferrerKind {
  if (host === DIRECT_REFERRER) return 'direct';
  if (searchEngine(host)) return 'search';
  return socialNetwork(host) ? 'social' : 'other';
}
