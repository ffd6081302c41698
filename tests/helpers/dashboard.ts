import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { screenshot } from './browser.js';

/** Signs the page's browser context in with a session cookie (`name=value`, as the login answer sets it) for the server at `url`. */
export async function useSessionCookie(page: Page, url: string, cookie: string): Promise<void> {
  const at = cookie.indexOf('=');
  await page.context().addCookies([{ name: cookie.slice(0, at), value: cookie.slice(at + 1), url }]);
}

/**
 * Collects what the page writes to its console as errors, and uncaught exceptions: the dashboard must
 * run with none, CSP refusals included (Chromium reports those as console errors).
 */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return errors;
}

/**
 * Serious and critical WCAG A/AA violations on the page. axe is served from the page's own origin (a route the
 * browser answers itself), so it runs under the dashboard's real CSP rather than with CSP bypassed.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const url = `${origin}/app/__axe-test.js`;
  await page.route(url, (route) => route.fulfill({ body: axe.source, contentType: 'text/javascript' }));
  await page.addScriptTag({ url });
  return page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: typeof axe }).axe.run({ runOnly: ['wcag2a', 'wcag2aa'], iframes: false });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/** Waits until no "Loading…" status is left. The skeleton holds its words in a hidden child, so a status is matched
 * by the text it contains, not its own. Generous: on a busy machine a page's requests may take seconds. */
export async function noneLoading(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .locator('[role=status]')
          .filter({ hasText: /^Loading/ })
          .count(),
      { timeout: 10_000 },
    )
    .toBe(0);
}

/** Waits for the page to settle: no request of the app in flight and no "Loading…" left. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await noneLoading(page);
}

/** Each dashboard page at 1280 and 390 px: a full-page screenshot, no sideways overflow and axe at both. Ends at 1280 px. */
export async function capture(page: Page, name: string, axeResults: Record<string, string[]>): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 800 });
    await settle(page);
    await screenshot(page, `dashboard-${name}`, true);
    // Usable at phone width: nothing wider than the screen, so nothing needs a sideways scroll.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width} px`).toBeLessThanOrEqual(width);
    axeResults[`${name}-${width}`] = await seriousViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * The page as a system in dark mode loads it: a new page of the same session with `prefers-color-scheme: dark`,
 * captured as `capture` does, its console free of errors. Not emulateMedia on the page under test: once in CI,
 * Chromium stopped running animation frames on a page right after its colour scheme was switched back, and
 * every later click waited on them.
 */
export async function captureDark(
  page: Page,
  name: string,
  axeResults: Record<string, string[]>,
  ready: (dark: Page) => Promise<void> = async () => {},
): Promise<void> {
  const browser = page.context().browser()!;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    colorScheme: 'dark',
    storageState: await page.context().storageState(),
  });
  try {
    const dark = await context.newPage();
    dark.setDefaultTimeout(15_000);
    const errors = watchConsole(dark);
    await dark.goto(page.url());
    await ready(dark);
    await capture(dark, name, axeResults);
    expect(errors, `console of ${name}`).toEqual([]);
  } finally {
    await context.close();
    await page.bringToFront(); // the page under test again, or its frames (and clicks) wait on a hidden tab
  }
}
