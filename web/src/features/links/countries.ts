/**
 * ISO 3166-1 countries with their English names, from the browser's own Intl data rather than a hand-kept
 * list. The server matches a visitor's country by the same English name (infra/geo.ts, Intl.DisplayNames),
 * lower-cased, which is what the spec's `geotarget.location` holds: "Germany" is stored as "germany".
 */
export interface Country {
  code: string;
  name: string;
}

// Two-letter codes Intl names that are no country a visitor's address can be located in (unions, pseudo
// and reserved regions), and retired codes whose names duplicate a current one.
const NOT_COUNTRIES = new Set(['AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'QO', 'TA', 'UN', 'XA', 'XB', 'ZZ']);

function allCountries(): Country[] {
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  const byName = new Map<string, Country>();
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      const name = NOT_COUNTRIES.has(code) ? undefined : names.of(code);
      // A retired code (DD, SU, YU) canonicalises to another; keep the current one only.
      if (name && canonical(code) === code && !byName.has(name)) byName.set(name, { code, name });
    }
  return [...byName.values()].sort((x, y) => x.name.localeCompare(y.name, 'en'));
}

function canonical(code: string): string {
  try {
    return new Intl.Locale(`und-${code}`).region ?? code;
  } catch {
    return code;
  }
}

export const COUNTRIES = allCountries();
const byKey = new Map(COUNTRIES.flatMap((c) => [[c.name.toLowerCase(), c] as const, [c.code.toLowerCase(), c] as const]));

/** The country a stored location (a lower-case name, or a code as the redirect also matches) stands for. */
export const countryOfKey = (key: string): Country | undefined => byKey.get(key.trim().toLowerCase());

/** What a stored location is shown as: the country's name, or the text itself for a location of another kind. */
export const countryLabel = (key: string): string => countryOfKey(key)?.name ?? key;

/** The value `geotarget.location` takes for a country: its English name, lower case. */
export const locationOf = (country: Country): string => country.name.toLowerCase();

/** Countries whose name (or code) holds the typed text, those starting with it first. */
export function searchCountries(text: string, limit = 8): Country[] {
  const q = text.trim().toLowerCase();
  if (!q) return COUNTRIES.slice(0, limit);
  const starts = COUNTRIES.filter((c) => c.name.toLowerCase().startsWith(q) || c.code.toLowerCase() === q);
  const within = COUNTRIES.filter((c) => !starts.includes(c) && c.name.toLowerCase().includes(q));
  return [...starts, ...within].slice(0, limit);
}
