/** Texts of the link form the API reads otherwise: times in UTC, addresses with their scheme. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` (UTC, the API's form) → the local `YYYY-MM-DDTHH:MM` of a datetime-local input. */
export function expiryToInput(value: string | null): string {
  return localInput(value, false);
}

/** The same with its seconds (`…THH:MM:SS`, for an input with step=1), so a time the API holds to the second reads back unchanged. */
export function timeToInput(value: string | null): string {
  return localInput(value, true);
}

function localInput(value: string | null, seconds: boolean): string {
  if (!value) return '';
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return '';
  const minute = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return seconds ? `${minute}:${pad(date.getSeconds())}` : minute;
}

/** The local time a person picked → the API's UTC `YYYY-MM-DD HH:MM:SS`. */
export function inputToExpiry(value: string): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * A destination typed without a scheme (`shop.example.com/x`) as the https address people mean, as Dub and
 * Bitly read it; anything with a scheme (or no host-like start) is left for the checks to judge.
 */
export function withScheme(value: string): string {
  const text = value.trim();
  if (!text || /^[a-z][a-z\d+.-]*:\/\//i.test(text) || /^(mailto|javascript|data|tel|file|blob|about):/i.test(text)) return text;
  if (text.startsWith('//')) return `https:${text}`;
  return /^(localhost|[^\s/:?#]+\.[^\s/:?#]+)(:\d+)?([/?#]|$)/i.test(text) ? `https://${text}` : text;
}
