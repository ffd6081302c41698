/** Origin of a link: its branded domain, or BASE_URL for the default domain. */
export function originOf(config, domain) {
    return domain ? `${domain.scheme}://${domain.host}` : config.BASE_URL;
}
export function shortUrl(config, domain, alias) {
    return `${originOf(config, domain)}/${alias}`;
}
//# sourceMappingURL=short-url.js.map