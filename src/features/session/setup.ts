import type { AppContext } from '../../context.js';
import { prepareSetup } from './sign-in.js';

/**
 * While no account exists, logs the one-time setup URL at every start (warn, so LOG_LEVEL=warn still shows it):
 * `Open {DASHBOARD_URL or BASE_URL}/app/setup?token=… to create the first account`, also as the field `setupUrl`.
 */
export async function announceSetup(ctx: AppContext): Promise<void> {
  const token = await prepareSetup(ctx);
  if (!token) return;
  const setupUrl = `${ctx.config.DASHBOARD_ORIGIN}/app/setup?token=${encodeURIComponent(token)}`;
  ctx.log.warn({ setupUrl }, `No account yet: open ${setupUrl} to create the first account`);
}
