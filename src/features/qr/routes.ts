import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the qr feature. */
export function qrRoutes(_app: App, _ctx: AppContext): void {}
