import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: QR images at /qr/{slug} and the scan-tracking address (filled in by the qr feature). */
export function qrPublicRoutes(_app: App, _ctx: AppContext): void {}
