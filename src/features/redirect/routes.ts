import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: the public side (redirects, pages, QR images). Registered last: it owns the catch-all. */
export function publicRoutes(_app: App, _ctx: AppContext): void {}
