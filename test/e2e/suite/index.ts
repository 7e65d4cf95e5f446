// The test runner the extension host loads (extensionTestsPath), for both code-server
// (scripts/e2e.mjs) and desktop VS Code (scripts/test-electron.mjs, the F5 "Extension Tests").
// Runs every *.test.js beside it with mocha BDD; E2E_GREP filters by title; the outcome is
// written as JSON to E2E_RESULTS, because the runner must not trust the host's log.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export interface SuiteResults {
  passed: string[];
  failed: { title: string; error: string }[];
  pending: string[];
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, reporter: 'spec' });
  if (process.env.E2E_GREP) mocha.grep(process.env.E2E_GREP);
  const results: SuiteResults = { passed: [], failed: [], pending: [] };
  const finish = (): void => {
    if (process.env.E2E_RESULTS) fs.writeFileSync(process.env.E2E_RESULTS, JSON.stringify(results, null, 2));
  };

  return new Promise<void>((resolve, reject) => {
    try {
      for (const file of fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) {
        mocha.addFile(path.join(__dirname, file));
      }
      const runner = mocha.run((failures) => {
        finish();
        if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
        else resolve();
      });
      runner.on('pass', (test) => results.passed.push(test.fullTitle()));
      runner.on('pending', (test) => results.pending.push(test.fullTitle()));
      runner.on('fail', (test, err: unknown) => results.failed.push({ title: test.fullTitle(), error: explain(err) }));
    } catch (e) {
      // A test file that does not load (syntax error, bad import) is a failure, not a crash.
      results.failed.push({ title: 'loading the extension-host tests', error: explain(e) });
      finish();
      reject(e);
    }
  });
}

/** The error's message plus where it was thrown in the compiled tests, for the runner to print. */
function explain(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // The first frame in our own tests (source-mapped to .ts by the extension host, or .js).
  const where = err.stack?.split('\n').find((l) => /^\s*at .*[\\/]test[\\/]e2e[\\/]/.test(l) && !l.includes('node_modules'));
  return where ? `${err.message}\n${where.trim()}` : err.message;
}
