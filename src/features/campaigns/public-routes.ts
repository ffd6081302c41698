import type { AppContext } from '../../context.js';
import type { App } from '../../http/types.js';

/** Stub: /r/{slug} rotator and /u/{username}/{slug}-{id} public list (filled in by the campaigns feature). */
export function campaignPublicRoutes(_app: App, _ctx: AppContext): void {}
