// Runs the UI tests. Each compiled out/test/e2e/ui/<name>.ui.js exports `run(ctx)` and may export
// `title` (a sentence), `trusted` (default true; false = run in Restricted Mode) and `timeoutMs`.
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { newPage, waitForWorkbench, workbenchUrl } from './browser.mjs';

const require = createRequire(import.meta.url);
const DEFAULT_TIMEOUT_MS = 90_000;

/** The UI test modules in `dir` whose "<name> <title>" matches `grep` (a RegExp or undefined). */
export function loadUiTests(dir, grep) {
  let files;
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.ui.js')).sort();
  } catch {
    return []; // nothing compiled yet
  }
  return files
    .map((f) => {
      const mod = require(path.join(dir, f));
      return {
        name: f.slice(0, -'.ui.js'.length),
        title: typeof mod.title === 'string' ? mod.title : '',
        trusted: mod.trusted !== false,
        timeoutMs: typeof mod.timeoutMs === 'number' ? mod.timeoutMs : DEFAULT_TIMEOUT_MS,
        run: mod.run,
      };
    })
    .filter((t) => !grep || grep.test(`${t.name} ${t.title}`));
}

/**
 * Opens the workbench on `workspace` in a fresh browser context, waits until its explorer is
 * up, then runs the test with a deadline. On failure, saves `<outDir>/<name>-failure.png`.
 * Options: browser, baseUrl, test, workspace, outDir, driver (compiled test/e2e/ui/driver.js).
 * Returns { ok, ms, error?, screenshot?, external }.
 */
export async function runUiTest(o) {
  const started = Date.now();
  const { context, page, external, errors } = await newPage(o.browser);
  try {
    if (typeof o.test.run !== 'function') throw new Error(`${o.test.name}.ui.js exports no run(ctx) function`);
    await page.goto(workbenchUrl(o.baseUrl, o.workspace));
    await waitForWorkbench(page);
    const ctx = o.driver.createContext(page, {
      baseUrl: o.baseUrl, workspace: o.workspace, outDir: o.outDir, trusted: o.test.trusted,
    });
    await withDeadline(o.test.run(ctx), o.test.timeoutMs);
    return { ok: true, ms: Date.now() - started, external: [...external] };
  } catch (e) {
    const screenshot = path.join(o.outDir, `${o.test.name}-failure.png`);
    const saved = await page.screenshot({ path: screenshot }).then(() => true, () => false);
    const pageErrors = errors.length ? `\npage errors: ${errors.slice(0, 3).join(' | ')}` : '';
    return {
      ok: false, ms: Date.now() - started, external: [...external],
      error: `${firstLines(e)}${pageErrors}`, screenshot: saved ? screenshot : undefined,
    };
  } finally {
    await context.close();
  }
}

function withDeadline(promise, ms) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms);
  });
  promise.catch(() => {}); // it may still reject after the deadline, once the page is closed
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

function firstLines(e, n = 4) {
  // Playwright's messages carry ANSI colours and a long call log: keep the first few plain lines.
  return String(e?.message ?? e).replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(0, n).join('\n');
}
