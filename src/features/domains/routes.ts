import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the domains feature. */
export function domainRoutes(_app: App, _ctx: AppContext): void {}
