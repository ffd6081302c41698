import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../../db/dialect.js';
import { fail } from '../../lib/errors.js';
import { constantTimeEqual, generateApiKey, hashApiKey, hashPassword, randomToken } from '../../lib/secrets.js';
import { nowTimestamp } from '../../lib/time.js';
import * as repo from './repo.js';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;
export const MIN_PASSWORD = 8;
function toView(user) {
    const gravatar = createHash('md5').update(user.email.trim().toLowerCase()).digest('hex');
    return {
        id: user.id,
        email: user.email,
        username: user.username,
        avatar: user.avatar || `https://www.gravatar.com/avatar/${gravatar}?d=identicon`,
        status: user.status,
        expires: user.expires ?? '',
        registered: user.created_at,
    };
}
export async function getAccount(ctx, userId) {
    const user = await repo.findUserById(ctx.db, userId);
    if (!user)
        throw fail('not_found', 'User');
    return toView(user);
}
function checkEmail(email) {
    const value = email.trim();
    if (!EMAIL.test(value) || value.length > 254)
        throw fail('email_invalid');
    return value;
}
function checkPassword(password) {
    if (password.length < MIN_PASSWORD)
        throw fail('password_short', MIN_PASSWORD);
    return password;
}
export async function updateAccount(ctx, userId, input) {
    if (input.email === undefined && input.password === undefined)
        throw fail('nothing_to_update', 'an email or a password');
    const changes = {};
    if (input.email !== undefined)
        changes.email = checkEmail(input.email);
    if (input.password !== undefined)
        changes.password_hash = await hashPassword(checkPassword(input.password));
    try {
        await repo.updateUser(ctx.db, userId, changes);
    }
    catch (error) {
        if (isUniqueViolation(error))
            throw fail('email_taken');
        throw error;
    }
}
/** Registration makes the API key at once; it is shown here and never again. */
export async function createUser(ctx, input) {
    const email = checkEmail(input.email);
    const username = input.username ?? email.split('@')[0].replace(/[^A-Za-z0-9_.-]/g, '').padEnd(3, '0').slice(0, 32);
    if (!USERNAME.test(username))
        throw fail('username_invalid');
    const password = input.password ?? randomToken(18);
    const apiKey = generateApiKey();
    if (await repo.findUserByEmail(ctx.db, email))
        throw fail('email_taken');
    if (await repo.findUserByUsername(ctx.db, username))
        throw fail('username_taken');
    try {
        const id = await repo.insertUser(ctx.db, {
            email,
            username,
            password_hash: await hashPassword(checkPassword(password)),
            api_key_hash: hashApiKey(apiKey),
            created_at: nowTimestamp(),
        });
        return { id, email, username, apiKey };
    }
    catch (error) {
        if (isUniqueViolation(error))
            throw fail('account_taken');
        throw error;
    }
}
/** A new key replaces the old one at once: the old key's hash no longer matches any account. */
export async function rotateKey(ctx, email) {
    const user = await repo.findUserByEmail(ctx.db, email.trim());
    if (!user)
        throw fail('not_found', 'User');
    const apiKey = generateApiKey();
    await repo.updateUser(ctx.db, user.id, { api_key_hash: hashApiKey(apiKey) });
    return { id: user.id, email: user.email, username: user.username, apiKey };
}
export async function deleteUserByEmail(ctx, email) {
    const user = await repo.findUserByEmail(ctx.db, email.trim());
    if (!user)
        throw fail('not_found', 'User');
    await repo.deleteUser(ctx.db, user.id);
    return { id: user.id, email: user.email };
}
export function listUsers(ctx) {
    return repo.listUsers(ctx.db);
}
/** The account that owns an API key (compared in constant time), or null. */
export async function accountByApiKey(ctx, key) {
    if (key.length > 256)
        return null;
    const keyHash = hashApiKey(key);
    const row = await repo.findAccountByKeyHash(ctx.db, keyHash);
    if (!row || !constantTimeEqual(row.api_key_hash, keyHash))
        return null;
    return { userId: row.id, keyHash };
}
//# sourceMappingURL=service.js.map