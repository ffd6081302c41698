import type { Logger } from 'pino';
import type { Db } from '../../db/connect.js';
import type { TargetKind } from '../../db/types.js';

/** The raw facts of one visit, captured on the request path; everything else is derived off it. */
export interface Visit {
  ip: string;
  userAgent: string;
  referer: string;
  acceptLanguage: string;
  /** Date.now() of the visit. */
  at: number;
}

export interface ClickRecorderOptions {
  db: Db;
  log: Logger;
  secret: string;
  flushMs: number;
  batchMax: number;
}

/**
 * Stub: the stats feature implements batching. `record` must stay cheap and synchronous (the redirect
 * path calls it); `flush` writes everything pending and is awaited on shutdown.
 */
export class ClickRecorder {
  constructor(readonly options: ClickRecorderOptions) {}

  record(_kind: TargetKind, _id: number, _visit: Visit): void {}

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    await this.flush();
  }
}
