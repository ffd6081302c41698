import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the campaigns feature. */
export function campaignRoutes(_app: App, _ctx: AppContext): void {}
