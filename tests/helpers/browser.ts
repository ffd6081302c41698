import { mkdirSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM_PATH } from './chromium.js';
import { startServer, type TestServer } from './server.js';

export { chromiumPresent } from './chromium.js';

/** Headless Debian Chromium; Playwright gives every launch a fresh temporary profile (user-data dir). `args` add switches. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...args,
    ],
  });
}

/** A port free a moment ago on 127.0.0.1, for a server whose BASE_URL must name its port before it listens. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Screenshots go to the git-ignored screenshots/ folder at the repository root (or SCREENSHOTS_DIR), to look at by eye. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR || join(import.meta.dirname, '..', '..', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  // Under new headless, a page behind another (a dark-mode capture's, say) never commits the frame a capture
  // waits for: CI timed out twice so (2026-11-26). So the page comes to the front first, and once more on a
  // timeout, when a capture on the two shared cores was merely slow.
  await page.bringToFront();
  try {
    await page.screenshot({ path, fullPage, timeout: 20_000 });
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
    await page.bringToFront();
    await page.screenshot({ path, fullPage, timeout: 20_000 });
  }
}

/**
 * WCAG 2 A/AA violations axe-core finds on the page (framed documents left out), as "rule: selectors".
 * Injecting axe needs a context made with `bypassCSP: true`: our pages allow no script but their own.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: axe.source });
  return page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: typeof axe }).axe.run({ runOnly: ['wcag2a', 'wcag2aa'], iframes: false });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

/**
 * A test server a browser can use: its BASE_URL is its own address (http://127.0.0.1:{port}), so the pages
 * the browser loads from it are on the default domain. The port is picked free first, then listened on.
 */
export async function startBrowserServer(env: Record<string, string> = {}): Promise<TestServer> {
  const port = await freePort();
  return startServer({ BASE_URL: `http://127.0.0.1:${port}`, ...env }, { port });
}

export interface Site {
  /** http://127.0.0.1:{port}: another origin than the Redirectory server. */
  url: string;
  close(): Promise<void>;
}

/**
 * A small destination site on 127.0.0.1: every path answers a page whose heading names the path.
 * Paths under /deny-xfo/ send X-Frame-Options: DENY and under /deny-csp/ CSP frame-ancestors 'none',
 * as sites that refuse to be framed do.
 */
export async function startSite(): Promise<Site> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (path.startsWith('/deny-xfo/')) headers['x-frame-options'] = 'DENY';
    if (path.startsWith('/deny-csp/')) headers['content-security-policy'] = "frame-ancestors 'none'";
    res.writeHead(200, headers);
    res.end(`<!doctype html><title>Destination</title><h1 id="where">Destination ${path.replace(/[<>&"]/g, '')}</h1>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface BrowserRig {
  server: TestServer;
  site: Site;
  browser: Browser;
  /** An API key of an account on `server`. */
  key: string;
  /** A page in a fresh context (its own cookies), 800 px high; `bypassCSP` only to inject axe. */
  newPage(width?: number, bypassCSP?: boolean): Promise<Page>;
}

/** For a browser test file's describe: Chromium, a server on its own address (with `env`), a destination site and an account. */
export function useBrowserRig(env: Record<string, string> = {}): BrowserRig {
  const rig = {} as BrowserRig;
  beforeAll(async () => {
    [rig.server, rig.site, rig.browser] = await Promise.all([
      startBrowserServer({ RATE_LIMIT_MAX: '100000', ...env }),
      startSite(),
      launchChromium(),
    ]);
    rig.key = (await rig.server.user()).apiKey;
  });
  afterAll(async () => {
    await rig.browser?.close();
    await Promise.all([rig.server?.close(), rig.site?.close()]);
  });
  rig.newPage = async (width = 1280, bypassCSP = false) => {
    const page = await (await rig.browser.newContext({ viewport: { width, height: 800 }, bypassCSP })).newPage();
    page.setDefaultTimeout(10_000); // generous: the suite shares two cores
    return page;
  };
  return rig;
}
