import { countryOf, normalizeIp } from '../../../infra/geo.js';
import { memoize } from '../../../lib/bounded-cache.js';
import { visitorAddress, type Address } from '../../../lib/ip-match.js';
import { describeAgent, type Agent } from '../../../lib/visitor.js';
import { languagesOf, type Visitor } from './targeting.js';

// A routing rule's conditions as checks (compiled by resolve/compile-routing.ts), and the facts of a visit they read.

export interface RoutedVisit extends Visitor {
  /** The request's path with its query (`/abc?ref=x`); absent: no query. */
  url?: string;
  now: number;
}

/** A condition's kind, as `Check.kind`. */
export const QUERY_PRESENT = 0;
export const QUERY_EQUALS = 1;
export const QUERY_ABSENT = 2;
export const IP = 3;
export const DATE = 4;
export const BROWSER = 5;
export const OS = 6;
export const DEVICE = 7;
export const LANGUAGE = 8;
export const COUNTRY = 9;

/**
 * One condition with its operands parsed, every field present whatever the kind (one object shape, one
 * switch in `passes`; closures per condition cost a call and a facts object per visit).
 */
export interface Check {
  kind: number;
  /** The query parameter's name; the browser, OS, device, language or country sought (lower case). */
  text: string;
  /** The query parameter's value for QUERY_EQUALS; `${code}-` for a language code without region, else "". */
  other: string;
  /** DATE: when it starts to hold and when it stops (ms). */
  after: number;
  before: number;
  /** IP: the network's test; null for other kinds. */
  inside: ((address: Address | null) => boolean) | null;
}

/**
 * A user agent's part in a visit, once per distinct string: whether it is a link previewer (decide.ts), its hash, and its
 * parse once a condition asks. One memo for all three: each lookup hashes and compares the whole string.
 */
export interface AgentFacts {
  crawler: boolean;
  hash: number;
  agent: Agent | undefined;
}

/** Link-preview fetchers of social networks and chat apps: they get the Open Graph page. */
const SOCIAL_CRAWLER =
  /facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|linkedinbot|slackbot|slack-imgproxy|discordbot|whatsapp|telegrambot|pinterest|redditbot|embedly|skypeuripreview|vkshare|mastodon|bluesky|iframely|snapchat|viber|quora link preview|tumblr|xing-contenttabreceiver/i;

/**
 * An address's: written as IPv4 when IPv4-mapped (what the hash reads), parsed once an `ip` condition asks,
 * and its country's code and name in lower case ("" when none) once a `country` condition asks.
 */
export interface IpFacts {
  written: string;
  address: Address | null | undefined;
  countryCode: string | undefined;
  countryName: string;
}

// One memo entry per header string instead of one per fact: each lookup hashes and compares the string.
export const agentFacts = memoize(
  (userAgent): AgentFacts => {
    let h = 0x811c9dc5;
    for (let i = 0; i < userAgent.length; i++) h = Math.imul(h ^ userAgent.charCodeAt(i), 0x01000193);
    return { crawler: userAgent.length > 0 && SOCIAL_CRAWLER.test(userAgent), hash: Math.imul(h ^ 10, 0x01000193), agent: undefined };
  },
  10_000,
  1_024,
);
export const ipFacts = memoize(
  (ip): IpFacts => ({ written: normalizeIp(ip), address: undefined, countryCode: undefined, countryName: '' }),
  10_000,
  64,
);

/**
 * The facts of the visit being routed, each looked up at most once. One instance serves every visit:
 * route() runs synchronously to the end, and a visit then allocates nothing here.
 */
export class Seen {
  visit: RoutedVisit | null = null;
  private agentOf: AgentFacts | undefined = undefined;
  private ipOf: IpFacts | undefined = undefined;
  private queryOf: URLSearchParams | null | undefined = undefined;
  private languagesOf: string[] | undefined = undefined;

  /** `agent`: the visit's AgentFacts when the caller looked them up already. */
  reset(visit: RoutedVisit, agent: AgentFacts | undefined): void {
    this.visit = visit;
    this.agentOf = agent;
    this.ipOf = this.queryOf = this.languagesOf = undefined;
  }

  agentFacts(): AgentFacts {
    return (this.agentOf ??= agentFacts(this.visit!.userAgent));
  }

  ipFacts(): IpFacts {
    return (this.ipOf ??= ipFacts(this.visit!.ip));
  }

  agent(): Agent {
    const facts = this.agentFacts();
    return (facts.agent ??= describeAgent(this.visit!.userAgent));
  }

  address(): Address | null {
    const ip = this.ipFacts();
    if (ip.address === undefined) ip.address = visitorAddress(this.visit!.ip);
    return ip.address;
  }

  /** The visitor's country as IpFacts keeps it. */
  country(): IpFacts {
    const ip = this.ipFacts();
    if (ip.countryCode === undefined) {
      const country = countryOf(this.visit!.ip);
      ip.countryName = country ? country.name.toLowerCase() : '';
      ip.countryCode = country ? country.code.toLowerCase() : '';
    }
    return ip;
  }

  /** null without a query, the common case. */
  query(): URLSearchParams | null {
    if (this.queryOf === undefined) {
      const url = this.visit!.url ?? '';
      const at = url.indexOf('?');
      this.queryOf = at < 0 ? null : new URLSearchParams(url.slice(at + 1));
    }
    return this.queryOf;
  }

  languages(): string[] {
    return (this.languagesOf ??= this.visit!.acceptLanguage ? languagesOf(this.visit!.acceptLanguage) : []);
  }
}

export function passes(check: Check, facts: Seen): boolean {
  switch (check.kind) {
    case QUERY_PRESENT:
      return facts.query()?.has(check.text) ?? false;
    case QUERY_EQUALS:
      return facts.query()?.has(check.text, check.other) ?? false;
    case QUERY_ABSENT:
      return !(facts.query()?.has(check.text) ?? false);
    case IP:
      return check.inside!(facts.address());
    case DATE: {
      const now = facts.visit!.now;
      return now >= check.after && now < check.before;
    }
    case BROWSER:
      return facts.agent().browserKeys.includes(check.text);
    case OS: {
      const agent = facts.agent();
      return agent.osKey === check.text || agent.names.includes(check.text);
    }
    case DEVICE:
      return facts.agent().names.includes(check.text);
    case LANGUAGE:
      return speaks(facts.languages(), check.text, check.other);
    default: {
      const ip = facts.country();
      return ip.countryCode === check.text || ip.countryName === check.text;
    }
  }
}

/** Whether a tag is `code`, or (`prefix` not "") a regional form of it. */
function speaks(tags: string[], code: string, prefix: string): boolean {
  for (let i = 0; i < tags.length; i++) if (tags[i] === code || (prefix !== '' && tags[i]!.startsWith(prefix))) return true;
  return false;
}
