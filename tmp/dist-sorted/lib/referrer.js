/** Where a visit came from: the Referer header reduced to a host, and the social network behind it. */
/** Label of visits without a usable Referer (typed, bookmarked, e-mail clients, apps, stripped by policy). */
export const DIRECT_REFERRER = 'direct';
/** Social networks counted in socialCount, with the hosts (and their subdomains) that refer for them. */
export const SOCIAL_NETWORKS = {
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
// Google and Pinterest refer from every national domain: google.de, google.co.uk, pinterest.fr, …
const NATIONAL = /(?:^|\.)(google|pinterest)\.(?:com?\.)?[a-z]{2,3}$/;
const MAX_HOST = 253;
const byHost = new Map();
for (const [network, hosts] of Object.entries(SOCIAL_NETWORKS))
    for (const host of hosts)
        byHost.set(host, network);
/** Lower-case host of the Referer without a leading "www."; DIRECT_REFERRER when absent or not a URL. */
export function referrerHost(referer) {
    if (!referer)
        return DIRECT_REFERRER;
    let host;
    try {
        host = new URL(referer).hostname.toLowerCase();
    }
    catch {
        return DIRECT_REFERRER;
    }
    if (host.startsWith('www.'))
        host = host.slice(4);
    return host && host.length <= MAX_HOST ? host : DIRECT_REFERRER;
}
/** The social network a referrer host belongs to (m.facebook.com → facebook), or null. */
export function socialNetwork(host) {
    const national = NATIONAL.exec(host);
    if (national)
        return national[1];
    // Walk up the labels: l.facebook.com, facebook.com.
    for (let rest = host; rest.includes('.'); rest = rest.slice(rest.indexOf('.') + 1)) {
        const network = byHost.get(rest);
        if (network)
            return network;
    }
    return null;
}
//# sourceMappingURL=referrer.js.map