export interface DomainRef {
  scheme: string;
  host: string;
}

/** Origin of a link: its branded domain, or BASE_URL for the default domain. */
export function originOf(config: { BASE_URL: string }, domain: DomainRef | null | undefined): string {
  return domain ? `${domain.scheme}://${domain.host}` : config.BASE_URL;
}

export function shortUrl(config: { BASE_URL: string }, domain: DomainRef | null | undefined, alias: string): string {
  return `${originOf(config, domain)}/${alias}`;
}
