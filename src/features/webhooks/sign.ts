import { createHmac } from 'node:crypto';
import { randomToken } from '../../infra/secrets.js';

/** `Redirectory-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`, as the README verifies it. */
export function signature(secret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

export const newSecret = () => `whsec_${randomToken(24)}`;
