// Runs the mocha suite inside code-server's (Node) extension host, the way @vscode/test-electron
// runs `extensionTestsPath`, and returns what the suite reported.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { newPage, workbenchUrl } from './browser.mjs';

/**
 * Options: browser, baseUrl, root (the extension under development), testsPath (compiled
 * suite index), workspace (folder to open), resultsFile (the E2E_RESULTS the server was
 * started with), timeoutMs. Returns { passed: string[], failed: {title, error}[] }.
 * The workbench's exit callback and the suite's results file must agree: the server log says
 * "exited with code 0" even when tests fail, so it is never consulted.
 */
export async function runExtensionHostTests(o) {
  rmSync(o.resultsFile, { force: true });
  const authority = new URL(o.baseUrl).host; // must equal the host:port the page is opened on
  const payload = [
    ['extensionDevelopmentPath', `vscode-remote://${authority}${o.root}`],
    ['extensionTestsPath', `vscode-remote://${authority}${o.testsPath}`],
  ];
  const { context, page, errors } = await newPage(o.browser);
  let exit;
  const exited = new Promise((resolve) => (exit = resolve));
  await page.exposeFunction('codeAutomationExit', (code) => exit(code));
  page.on('crash', () => exit('the page crashed'));

  let outcome;
  try {
    await page.goto(workbenchUrl(o.baseUrl, o.workspace, payload));
    // The deadline covers loading the workbench too: the suite starts once the host is up.
    outcome = await Promise.race([exited, timeout(o.timeoutMs)]);
  } catch (e) {
    outcome = e.message.split('\n')[0];
  } finally {
    await context.close();
  }

  const results = readResults(o.resultsFile);
  const failed = [...(results?.failed ?? [])];
  if (!results) {
    failed.push({ title: 'extension-host suite', error: `no results at ${o.resultsFile} (exit: ${outcome}); ${errors[0] ?? 'see the server log'}` });
  } else if (outcome !== 0 && failed.length === 0) {
    // Results say all passed but the host did not exit 0 (or never exited): do not call it green.
    failed.push({ title: 'extension-host suite', error: `the extension host ended with ${outcome} after reporting no failures` });
  }
  return { passed: results?.passed ?? [], failed };
}

function readResults(file) {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // a half-written file counts as missing
  }
}

function timeout(ms) {
  return new Promise((resolve) => setTimeout(() => resolve(`a timeout after ${ms / 1000} s`), ms).unref());
}
