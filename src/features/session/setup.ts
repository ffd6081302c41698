import type { AppContext } from '../../context.js';
import { prepareSetup } from './sign-in.js';

/**
 * While no account exists, logs the one-time setup URL at every start (warn, so LOG_LEVEL=warn still shows it)
 * in the field `setupUrl`: `{DASHBOARD_URL or BASE_URL}/app/setup?token=…`. On a terminal it stands alone on a
 * line under the message (createLogger), where a person sees it at once and can copy it whole.
 */
export async function announceSetup(ctx: AppContext): Promise<void> {
  const token = await prepareSetup(ctx);
  if (!token) return;
  const setupUrl = `${ctx.config.DASHBOARD_ORIGIN}/app/setup?token=${encodeURIComponent(token)}`;
  ctx.log.warn({ setupUrl }, 'No account yet: open this address to create the first account');
}
