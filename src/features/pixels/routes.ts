import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the pixels feature. */
export function pixelRoutes(_app: App, _ctx: AppContext): void {}
