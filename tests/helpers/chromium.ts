import { existsSync } from 'node:fs';

/** Debian's Chromium (apt-get install -y chromium); CHROMIUM_PATH points elsewhere. Never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const SKIP_MESSAGE = `browser tests SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`;

/**
 * Whether the browser tests can run. Without Chromium they are skipped and the run says so, except with
 * CI=true, where a missing Chromium is an error: CI must never pass without having run them.
 */
export function chromiumPresent(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') {
    throw new Error(`browser tests cannot run: no Chromium at ${CHROMIUM_PATH} and CI=true (apt-get install -y chromium)`);
  }
  return false;
}

/** A vitest global setup: says at the start and again at the end of the run that browser tests were skipped. */
export default function announceSkippedBrowserTests(): (() => void) | void {
  if (chromiumPresent()) return;
  console.warn(SKIP_MESSAGE);
  return () => console.warn(SKIP_MESSAGE);
}
