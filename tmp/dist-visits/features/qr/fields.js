import { fail } from '../../lib/errors.js';
/** Same bound as URLs; the QR capacity check refuses most long text well before it. */
const MAX_FIELD = 8192;
/**
 * Reads the sub-fields of a QR code's `data` object with messages that name the field as the
 * client sent it (`data.ssid`), or plain `data` when an older client sent a single string.
 */
export class Fields {
    source;
    fromString;
    constructor(source, 
    /** The one field a plain-string `data` filled, reported as `data`. */
    fromString) {
        this.source = source;
        this.fromString = fromString;
    }
    label(name) {
        return name === this.fromString ? 'data' : `data.${name}`;
    }
    /** The subject of a message, for helpers that phrase their own (checkHttpUrl). */
    phrase(name) {
        return `The field "${this.label(name)}"`;
    }
    /** A string sub-field; `keep` leaves surrounding spaces (passwords, SSIDs and free text mean them). */
    text(name, options = {}) {
        const value = this.source[name];
        if (value === undefined || value === null) {
            if (options.required)
                throw this.missing(name);
            return '';
        }
        if (typeof value !== 'string')
            throw fail('invalid_field', `The field "${this.label(name)}" must be a string.`);
        if (value.length > MAX_FIELD)
            throw fail('invalid_field', `The field "${this.label(name)}" is longer than ${MAX_FIELD} characters.`);
        if (options.required && value.trim() === '')
            throw this.missing(name);
        return options.keep ? value : value.trim();
    }
    flag(name) {
        const value = this.source[name];
        if (value === undefined || value === null)
            return false;
        if (typeof value !== 'boolean')
            throw fail('invalid_field', `The field "${this.label(name)}" must be a boolean.`);
        return value;
    }
    missing(name) {
        return fail('invalid_field', `The field "${this.label(name)}" is required for this type of QR code.`);
    }
}
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export function checkEmail(fields, name, value) {
    if (value !== '' && (!EMAIL.test(value) || value.length > 254)) {
        throw fail('invalid_field', `The field "${fields.label(name)}" must be an e-mail address.`);
    }
    return value;
}
/** Phone numbers lose their visual separators: tel: and SMSTO: payloads must not contain spaces. */
export function checkPhone(fields, name, value) {
    const compact = value.replace(/[\s().-]/g, '');
    if (value !== '' && !/^\+?[0-9*#]{2,32}$/.test(compact)) {
        throw fail('invalid_field', `The field "${fields.label(name)}" must be a phone number (digits, optionally starting with +).`);
    }
    return compact;
}
//# sourceMappingURL=fields.js.map