import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the channels feature. */
export function channelRoutes(_app: App, _ctx: AppContext): void {}
