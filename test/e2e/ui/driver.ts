// Shared helpers for UI tests that drive the real VS Code workbench (code-server in Chromium).
// Every wait has a deadline; nothing sleeps for a fixed time.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { pick, typeCommand } from './quickInput';

/** What scripts/e2e.mjs hands each UI test's `run(ctx)`. */
export interface UiContext {
  page: Page;
  /** e.g. http://127.0.0.1:41234 */
  baseUrl: string;
  /** Absolute path of this test's own copy of examples/: edit it freely. */
  workspace: string;
  /** Where screenshots go. */
  outDir: string;
  /** False when the workbench runs in Restricted Mode (an untrusted workspace). */
  trusted: boolean;
  runCommand(title: string): Promise<void>;
  openFileFromExplorer(relativePath: string): Promise<void>;
  findInFrames(selector: string, timeoutMs?: number): Promise<Locator>;
  waitForText(text: string | RegExp, options?: WaitForTextOptions): Promise<Locator>;
  /** Saves a PNG of the window as `<outDir>/<name>.png` and returns its path. */
  screenshot(name: string): Promise<string>;
}

export interface WaitForTextOptions {
  /** Only look inside elements matching this selector (default: the whole page). */
  within?: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

/** Builds the context for one test; its helpers are the functions below, bound to `page`. */
export function createContext(
  page: Page,
  o: { baseUrl: string; workspace: string; outDir: string; trusted: boolean },
): UiContext {
  return {
    page,
    ...o,
    runCommand: (title) => runCommand(page, title),
    openFileFromExplorer: (relativePath) => openFileFromExplorer(page, relativePath),
    findInFrames: (selector, timeoutMs) => findInFrames(page, selector, timeoutMs),
    waitForText: (text, options) => waitForText(page, text, options),
    screenshot: (name) => screenshot(page, o.outDir, name),
  };
}

/**
 * Runs a command by its palette title (e.g. "Judge Studio: Preview Prompt"): F1, type, pick. An open
 * palette does not list commands contributed after it opened (the extension host may still be
 * starting on a loaded machine), so a missing title closes the palette and asks again, until a deadline.
 */
export async function runCommand(page: Page, title: string, timeoutMs = 3 * DEFAULT_TIMEOUT_MS): Promise<void> {
  await typeCommand(page, title, timeoutMs);
  await pick(page, title);
}

/**
 * Opens a workspace file by clicking through the explorer ("a/b/c.judge" expands a, then b).
 * Resolves once its editor tab is the active one. (Ctrl+P does not open in headless Chromium.)
 */
export async function openFileFromExplorer(page: Page, relativePath: string): Promise<void> {
  const parts = relativePath.split('/').filter(Boolean);
  for (const [i, part] of parts.entries()) {
    const row = page
      .locator('.explorer-folders-view .monaco-list-row')
      .filter({ has: page.locator('.label-name', { hasText: exactly(part) }) })
      .first();
    try {
      await row.waitFor({ timeout: DEFAULT_TIMEOUT_MS });
    } catch {
      throw new Error(`"${parts.slice(0, i + 1).join('/')}" is not in the explorer (opening ${relativePath})`);
    }
    const isFolder = i < parts.length - 1;
    if (!isFolder || (await row.getAttribute('aria-expanded')) !== 'true') await clickBounded(page, row, `"${parts.slice(0, i + 1).join('/')}" in the explorer`);
  }
  const name = parts[parts.length - 1] ?? relativePath;
  await page
    .locator('.tabs-container .tab.active')
    .filter({ has: page.locator('.label-name', { hasText: exactly(name) }) })
    .waitFor({ timeout: DEFAULT_TIMEOUT_MS });
}

/**
 * Clicks `target`, a few seconds at a time: a click that cannot land (a hover, a toast or a closing
 * widget over the target, or the list redrawn under the pointer on a loaded machine) is retried after
 * Escape, which closes whatever was in the way, until a deadline. The error names what Playwright
 * said stood in the way the last time.
 */
export async function clickBounded(page: Page, target: Locator, what: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await target.click({ timeout: 5_000 });
      return;
    } catch (e) {
      if (Date.now() >= deadline) {
        const why = (e instanceof Error ? e.message : String(e)).split('\n').filter((l) => /intercepts|not visible|not stable|detached|waiting for/.test(l)).slice(-3).join('; ');
        throw new Error(`could not click ${what} within ${timeoutMs / 1000} s${why ? `: ${why}` : ''}`);
      }
      await page.keyboard.press('Escape');
      await movePointerAway(page);
    }
  }
}

/**
 * Moves the pointer to the empty stretch of the activity bar, where nothing shows a hover. A hover
 * left by the last pointer position (the explorer shows a file's full path under its row) covers the
 * row below it, and a click there cannot land until the pointer leaves.
 */
export async function movePointerAway(page: Page): Promise<void> {
  const bar = await page.locator('.part.activitybar').first().boundingBox().catch(() => null);
  if (bar) await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height * 0.7);
  else await page.mouse.move(1, 1);
  await page.locator('.workbench-hover-container, .monaco-hover:not(.hidden)').first().waitFor({ state: 'hidden', timeout: 2_000 }).catch(() => undefined);
}

/**
 * The first element matching `selector` inside any webview. Webviews are nested iframes
 * (iframe.webview > iframe#active-frame) that appear late, so all frames are polled until one
 * holds a match or the deadline passes.
 */
export async function findInFrames(page: Page, selector: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<Locator> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      const match = frame.locator(selector).first();
      if (await match.count().catch(() => 0)) return match;
    }
    if (Date.now() > deadline) throw new Error(`no webview contains ${selector} after ${timeoutMs / 1000} s`);
    await page.waitForTimeout(150); // poll interval, bounded by the deadline above
  }
}

/** Waits until `text` is visible (optionally inside `within`) and returns the element holding it. */
export async function waitForText(page: Page, text: string | RegExp, options: WaitForTextOptions = {}): Promise<Locator> {
  const scope = options.within ? page.locator(options.within) : page.locator('body');
  const match = scope.getByText(text).first();
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    await match.waitFor({ state: 'visible', timeout });
  } catch {
    throw new Error(`text ${String(text)} did not appear${options.within ? ` in ${options.within}` : ''} within ${timeout / 1000} s`);
  }
  return match;
}

/** Saves a PNG of the whole window as `<outDir>/<name>.png`; returns the path. */
export async function screenshot(page: Page, outDir: string, name: string): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${name.replace(/[^\w.-]+/g, '-')}.png`);
  await page.screenshot({ path: file });
  return file;
}

function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** Polls `check` until it holds, or throws `message` at the deadline (a check that throws counts as not yet). */
export async function waitUntil(check: () => Promise<boolean>, message: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((r) => setTimeout(r, 100)); // poll interval, bounded by the deadline
  }
}

/** Waits until the locator's trimmed text is `text`. */
export async function waitForLocatorText(locator: Locator, text: string, timeoutMs = 10_000): Promise<void> {
  await waitUntil(async () => ((await locator.textContent()) ?? '').trim() === text, `expected "${text}", read "${await locator.textContent().catch(() => '?')}"`, timeoutMs);
}
