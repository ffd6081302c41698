/**
 * The few request headers the lean front reads, found in `req.rawHeaders`. Node builds `req.headers` lazily,
 * lower-casing every name and storing it in an object of a shape of its own per request: the first read of
 * `req.headers` cost more than the rest of a cached redirect's own work (docs/performance.md#raw-headers).
 * Repeats are combined as Node combines them: host, user-agent and referer keep the first; cookie joins
 * with "; "; the others with ", ".
 */
export class FrontHeaders {
  host: string | undefined = undefined;
  userAgent: string | undefined = undefined;
  acceptLanguage: string | undefined = undefined;
  referer: string | undefined = undefined;
  cookie: string | undefined = undefined;
  forwardedFor: string | undefined = undefined;
  forwardedHost: string | undefined = undefined;
}

const enum Field {
  None,
  Host,
  UserAgent,
  AcceptLanguage,
  Referer,
  Cookie,
  ForwardedFor,
  ForwardedHost,
}

/** Names by length, so most names are told apart without a compare; each as browsers and proxies spell it. */
function fieldOf(name: string): Field {
  switch (name.length) {
    case 4:
      return name === 'Host' || name === 'host' || name.toLowerCase() === 'host' ? Field.Host : Field.None;
    case 6:
      return name === 'Cookie' || name === 'cookie' || name.toLowerCase() === 'cookie' ? Field.Cookie : Field.None;
    case 7:
      return name === 'Referer' || name === 'referer' || name.toLowerCase() === 'referer' ? Field.Referer : Field.None;
    case 10:
      return name === 'User-Agent' || name === 'user-agent' || name.toLowerCase() === 'user-agent' ? Field.UserAgent : Field.None;
    case 15:
      return longField(name.toLowerCase());
    case 16:
      return name === 'X-Forwarded-Host' || name === 'x-forwarded-host' || name.toLowerCase() === 'x-forwarded-host'
        ? Field.ForwardedHost
        : Field.None;
    default:
      return Field.None;
  }
}

function longField(lower: string): Field {
  return lower === 'accept-language' ? Field.AcceptLanguage : lower === 'x-forwarded-for' ? Field.ForwardedFor : Field.None;
}

const join = (first: string | undefined, next: string, separator: string) => (first === undefined ? next : `${first}${separator}${next}`);

export function frontHeaders(raw: string[]): FrontHeaders {
  const out = new FrontHeaders();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const value = raw[i + 1]!;
    switch (fieldOf(raw[i]!)) {
      case Field.Host:
        out.host ??= value;
        break;
      case Field.UserAgent:
        out.userAgent ??= value;
        break;
      case Field.Referer:
        out.referer ??= value;
        break;
      case Field.Cookie:
        out.cookie = join(out.cookie, value, '; ');
        break;
      case Field.AcceptLanguage:
        out.acceptLanguage = join(out.acceptLanguage, value, ', ');
        break;
      case Field.ForwardedFor:
        out.forwardedFor = join(out.forwardedFor, value, ', ');
        break;
      case Field.ForwardedHost:
        out.forwardedHost = join(out.forwardedHost, value, ', ');
        break;
      case Field.None:
        break;
    }
  }
  return out;
}
