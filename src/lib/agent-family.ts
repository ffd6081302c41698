import { describeAgent, UNKNOWN } from './visitor.js';

/** HTTP tools and libraries named by their family, matched on the User-Agent's first product token. */
const TOOLS: Array<[RegExp, string]> = [
  [/^curl\//i, 'curl'],
  [/^wget\//i, 'Wget'],
  [/^httpie\//i, 'HTTPie'],
  [/^python-requests\//i, 'Python Requests'],
  [/^python-httpx\//i, 'Python HTTPX'],
  [/^python-urllib\//i, 'Python urllib'],
  [/^aiohttp\//i, 'aiohttp'],
  [/^go-http-client\//i, 'Go'],
  [/^okhttp\//i, 'OkHttp'],
  [/^axios\//i, 'axios'],
  [/^node-fetch/i, 'node-fetch'],
  [/^(node|undici)\b/i, 'Node.js'],
  [/^postmanruntime\//i, 'Postman'],
  [/^insomnia\//i, 'Insomnia'],
  [/^java\//i, 'Java'],
  [/^apache-httpclient\//i, 'Java'],
  [/^ruby\b/i, 'Ruby'],
  [/^guzzlehttp\//i, 'Guzzle'],
  [/^libwww-perl\//i, 'Perl'],
  [/^mozilla\/\d[^)]*\) windowspowershell\//i, 'PowerShell'],
  [/^dart\//i, 'Dart'],
  [/^rust|^reqwest\//i, 'Rust'],
  [/^zapier/i, 'Zapier'],
];

/**
 * What the account activity log keeps of a User-Agent: "<browser> on <os>" (e.g. "Chrome on macOS"), the browser
 * or OS alone when only one is known, a tool's family (e.g. "curl"), or "" — never the header itself, whose
 * versions and build strings would help to fingerprint its sender.
 */
export function agentFamily(userAgent: string | undefined): string {
  const ua = (userAgent ?? '').trim();
  if (!ua) return '';
  const tool = TOOLS.find(([pattern]) => pattern.test(ua));
  if (tool) return tool[1];
  const { browser, os } = describeAgent(ua.slice(0, 512));
  const known = [browser, os].filter((part) => part !== UNKNOWN);
  return known.join(' on ');
}
