import { fail } from './errors.js';
export const MAX_URL_LENGTH = 8192;
const SCHEMES = new Set(['http:', 'https:']);
/**
 * Destinations must be absolute http(s) URLs; javascript:, data:, file: and the rest are refused.
 * Internationalized hosts and paths are accepted; the returned URL is the ASCII form for Location headers.
 */
export function checkHttpUrl(value, field) {
    const trimmed = value.trim();
    if (trimmed.length === 0)
        throw fail('invalid_field', `${field} is required.`);
    if (trimmed.length > MAX_URL_LENGTH)
        throw fail('invalid_field', `${field} is longer than ${MAX_URL_LENGTH} characters.`);
    let url;
    try {
        url = new URL(trimmed);
    }
    catch {
        throw fail('invalid_field', `${field} must be a valid http or https URL.`);
    }
    if (!SCHEMES.has(url.protocol))
        throw fail('invalid_field', `${field} must start with http:// or https://.`);
    if (!url.hostname)
        throw fail('invalid_field', `${field} must have a host name.`);
    return url;
}
/** A stored URL as it goes out in Location headers and links: absolute http(s), ASCII form; else null. */
export function httpHref(value) {
    // canParse first: a thrown TypeError costs more than the parse, and empty optional fields are common.
    const trimmed = value.trim();
    if (!trimmed || !URL.canParse(trimmed))
        return null;
    const url = new URL(trimmed);
    return SCHEMES.has(url.protocol) ? url.href : null;
}
/** Same check for optional fields: empty means "none". */
export function optionalHttpUrl(value, field) {
    if (value === undefined || value.trim() === '')
        return '';
    checkHttpUrl(value, field);
    return value.trim();
}
//# sourceMappingURL=urls.js.map