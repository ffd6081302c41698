import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { Lane } from './lane.js';

/** API keys are 256-bit random secrets: a fast hash is enough to store them, argon2 would only slow every request. */
export function generateApiKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares two secrets (hashes, signatures) in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * argon2 runs on libuv's threadpool, off the event loop, but each hash is about 20 ms of a core: unbounded
 * (4 bulk calls at once) it took every core from the event loop (docs/performance.md#argon2-slots). Account
 * passwords and the owner's own link passwords share this lane: at most one core less than the machine has.
 */
const sharedLane = new Lane(Math.max(1, availableParallelism() - 1));

/** Passwords (accounts and links) are low-entropy: argon2id. */
export function hashPassword(password: string): Promise<string> {
  return sharedLane.run(() => argonHash(password));
}

/** A stored value that is no argon2 hash (or any other failure of the check) is a wrong password. */
async function argonMatches(stored: string, password: string): Promise<boolean> {
  try {
    return await argonVerify(stored, password);
  } catch {
    return false;
  }
}

export function verifyPassword(stored: string, password: string): Promise<boolean> {
  return sharedLane.run(() => argonMatches(stored, password));
}

/** `verifyPassword` on a lane of the caller's; undefined when that lane is full. */
export function tryVerifyPassword(lane: Lane, stored: string, password: string): Promise<boolean> | undefined {
  return lane.tryRun(() => argonMatches(stored, password));
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Random alias from an alphabet without look-alikes (0/O, 1/l/I). randomInt is unbiased and draws from
 * a pooled buffer; a randomBytes call per alias cost about 5 % of creating a link.
 */
export function randomAlias(length = 7): string {
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}
