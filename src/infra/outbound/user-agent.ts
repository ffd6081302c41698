import { readFileSync } from 'node:fs';

/** The package's version, read once: src/ and dist/ both sit one level under the package root. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0';
  } catch {
    return '0';
  }
}

/** What outbound requests say they are: the product, its version and the installation to ask about them. */
export function outboundUserAgent(product: string, baseUrl: string): string {
  return `Redirectory-${product}/${packageVersion()} (+${baseUrl})`;
}
