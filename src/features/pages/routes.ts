import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the pages feature. */
export function pageRoutes(_app: App, _ctx: AppContext): void {}
