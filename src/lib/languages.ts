/** Accept-Language parsing, shared by language targeting and the clicks' language counts. */

export function normalizeLanguage(code: string): string {
  return code.trim().toLowerCase().replace(/_/g, '-');
}

const MAX_LANGUAGES = 16;

/**
 * Accept-Language tags, lower-case, highest q first (ties keep header order); `*`, q=0 and malformed
 * entries are dropped. Only the first entries count, so a huge header costs no more than a small one.
 */
export function preferredLanguages(header: string): string[] {
  const entries: Array<{ tag: string; q: number; i: number }> = [];
  const parts = header.split(',', MAX_LANGUAGES);
  for (let i = 0; i < parts.length; i++) {
    const [rawTag, ...params] = parts[i]!.split(';');
    const tag = normalizeLanguage(rawTag!);
    if (!/^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/.test(tag)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    if (q > 0) entries.push({ tag, q, i });
  }
  entries.sort((a, b) => b.q - a.q || a.i - b.i);
  return entries.map((e) => e.tag);
}

// Only languages ICU can name are counted: a visitor sending made-up codes must not grow a link's labels without end.
const LANGUAGE_NAMES = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' });

function isKnownLanguage(code: string): boolean {
  try {
    return LANGUAGE_NAMES.of(code) !== undefined;
  } catch {
    return false; // a code Intl refuses, such as a single letter
  }
}

/**
 * The visitor's first language as a primary subtag (`fr` of `fr-CH`); `Unknown` when the header names none or its
 * first language is not one ICU knows.
 */
export function primaryLanguage(header: string): string {
  const code = preferredLanguages(header)[0]?.split('-', 1)[0];
  return code && isKnownLanguage(code) ? code : 'Unknown';
}
