// Debian's Chromium driven by playwright-core: the browser half of the real VS Code.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// No sandbox (we run as root in CI), no GPU, and nothing that phones home.
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync'];

/** Launches headless Chromium; the caller closes it. Signals are ours to handle, not Playwright's. */
export async function launchBrowser(env) {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: run \`bash scripts/setup-e2e.sh\` or set CHROMIUM_PATH`);
  return chromium.launch({
    executablePath: CHROMIUM, headless: true, args: ARGS, env,
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
}

/** `/?folder=…` (and the extension-test payload, when given) on a code-server. */
export function workbenchUrl(baseUrl, folder, payload) {
  const url = new URL(baseUrl);
  url.searchParams.set('folder', folder);
  if (payload) url.searchParams.set('payload', JSON.stringify(payload));
  return url.href;
}

/**
 * A fresh browser context and page (no state shared with other tests) that records every
 * non-local origin it contacts and every uncaught page error, for the failure report.
 */
export async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  const external = new Set();
  const errors = [];
  const note = (url) => {
    const u = new URL(url);
    if (/^https?:$/.test(u.protocol) && !['127.0.0.1', 'localhost'].includes(u.hostname)) external.add(u.origin);
  };
  // Webview resources use *.vscode-resource.vscode-cdn.net URLs that the webview's service worker
  // answers from the local server; only what really went to (or failed on) the network counts.
  page.on('response', (r) => {
    if (!r.fromServiceWorker()) note(r.url());
  });
  page.on('requestfailed', (r) => note(r.url()));
  page.on('pageerror', (e) => errors.push(e.message.split('\n')[0]));
  return { context, page, external, errors };
}

/** Resolves when the workbench has loaded the folder: its explorer lists the first entry. */
export async function waitForWorkbench(page, timeoutMs = 60_000) {
  await page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: timeoutMs });
}
