import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
/** API keys are 256-bit random secrets: a fast hash is enough to store them, argon2 would only slow every request. */
export function generateApiKey() {
    return randomBytes(32).toString('base64url');
}
export function hashApiKey(key) {
    return createHash('sha256').update(key).digest('hex');
}
/** Compares two secrets (hashes, signatures) in time that does not depend on where they differ. */
export function constantTimeEqual(a, b) {
    const left = Buffer.from(a);
    const right = Buffer.from(b);
    return left.length === right.length && timingSafeEqual(left, right);
}
/** Passwords (accounts and links) are low-entropy: argon2id. */
export function hashPassword(password) {
    return argonHash(password);
}
export async function verifyPassword(stored, password) {
    try {
        return await argonVerify(stored, password);
    }
    catch {
        return false;
    }
}
export function hmac(secret, value) {
    return createHmac('sha256', secret).update(value).digest('base64url');
}
export function randomToken(bytes = 24) {
    return randomBytes(bytes).toString('base64url');
}
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/**
 * Random alias from an alphabet without look-alikes (0/O, 1/l/I). randomInt is unbiased and draws from
 * a pooled buffer; a randomBytes call per alias cost about 5 % of creating a link.
 */
export function randomAlias(length = 7) {
    let out = '';
    for (let i = 0; i < length; i++)
        out += ALPHABET[randomInt(ALPHABET.length)];
    return out;
}
//# sourceMappingURL=secrets.js.map