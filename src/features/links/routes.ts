import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: filled in by the links feature. */
export function linkRoutes(_app: App, _ctx: AppContext): void {}
