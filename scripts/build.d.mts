// Types of scripts/build.mjs for the tests (tests/helpers/build.ts), which share its lock and stamp.
export type Step = 'server' | 'web-types' | 'web';

export interface BuildOptions {
  steps?: Step[];
  force?: boolean;
  tolerant?: boolean;
  quiet?: boolean;
}

export function fingerprints(steps?: Step[]): Record<Step, string>;
export function ensureBuilt(options?: BuildOptions): Promise<{ built: Step[]; waited: boolean; ms: number }>;
