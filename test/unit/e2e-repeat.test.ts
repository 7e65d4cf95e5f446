// E2E_REPEAT's rounds and flake report (test/e2e/harness/repeat.mjs, ESM: run in a child node
// process). The rounds run a small script in place of scripts/e2e.mjs that writes what each round
// "found", so the report is checked against known outcomes.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');
const lib = pathToFileURL(path.join(root, 'test/e2e/harness/repeat.mjs')).href;

function runModule(body: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', `import * as r from ${JSON.stringify(lib)};\n${body}`], { encoding: 'utf8' });
}

describe('e2e repeat (E2E_REPEAT) and its flake report', () => {
  it('takes 1 to 1000 rounds and refuses anything else in words', () => {
    const out = runModule(`
      const seen = [];
      for (const v of [undefined, '', '1', '20', '1000']) seen.push(String(r.parseRepeat(v)));
      for (const v of ['0', '-3', '2.5', 'ten', '1001']) { try { r.parseRepeat(v); seen.push('accepted ' + v); } catch (e) { seen.push(e.message); } }
      console.log(JSON.stringify(seen));
    `);
    const seen = JSON.parse(out) as string[];
    assert.deepEqual(seen.slice(0, 5), ['undefined', 'undefined', '1', '20', '1000']);
    for (const m of seen.slice(5)) assert.match(m, /^E2E_REPEAT must be a whole number of rounds from 1 to 1000, not "/);
  });

  it('runs every round once, never retries, and names a test that passed and failed as flaky', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeat-test-'));
    try {
      const counter = path.join(dir, 'count');
      const script = path.join(dir, 'fake-e2e.mjs');
      // "b" fails in round 2 only, "c" in every round; the log counts the processes started.
      fs.writeFileSync(script, `
        import { appendFileSync, writeFileSync } from 'node:fs';
        const round = Number(process.env.E2E_ROUND);
        appendFileSync(${JSON.stringify(counter)}, round + ' ' + (process.env.E2E_REPEAT ?? 'unset') + '\\n');
        writeFileSync(process.env.E2E_OUTCOMES, JSON.stringify([
          { name: 'a', ok: true },
          { name: 'b', ok: round !== 2, error: round === 2 ? 'locator.waitFor: Timeout 20000ms exceeded.\\nCall log' : '' },
          { name: 'c', ok: false, error: 'no notification "x"' },
        ]));
        process.exit(1);
      `);
      const out = runModule(`
        const o = await r.repeatRuns(${JSON.stringify(script)}, 3, { ...process.env, E2E_REPEAT: '3' });
        console.log(JSON.stringify({ lines: o.report(), ok: o.ok(), flaky: o.flaky(), broke: o.broke() }));
      `);
      const last = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { lines: string[]; ok: boolean; flaky: string[]; broke: string[] };
      assert.deepEqual(fs.readFileSync(counter, 'utf8').trim().split('\n'), ['1 unset', '2 unset', '3 unset'], 'three rounds, each without E2E_REPEAT (no nested repeats, no retries)');
      assert.deepEqual(last.flaky, ['b']);
      assert.deepEqual(last.broke, ['c']);
      assert.equal(last.ok, false);
      assert.ok(last.lines.includes('  flaky: b: passed 2 of 3, failed in round(s) 2'), last.lines.join('\n'));
      assert.ok(last.lines.includes('    round 2: locator.waitFor: Timeout 20000ms exceeded.'), last.lines.join('\n'));
      assert.ok(last.lines.includes('  failed every round: c: passed 0 of 3, failed in round(s) 1, 2, 3'), last.lines.join('\n'));
      assert.ok(last.lines.includes('  passed every round: 1 of 3 test(s)'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts a round that reported nothing (it crashed) as a failure', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'repeat-test-'));
    try {
      const script = path.join(dir, 'crash.mjs');
      fs.writeFileSync(script, `process.exit(3);`);
      const out = runModule(`
        const o = await r.repeatRuns(${JSON.stringify(script)}, 2);
        console.log(JSON.stringify({ lines: o.report(), ok: o.ok() }));
      `);
      const last = JSON.parse(out.trim().split('\n').pop() ?? '{}') as { lines: string[]; ok: boolean };
      assert.equal(last.ok, false);
      assert.ok(last.lines.includes('  round 1 reported no tests (exit code 3)'), last.lines.join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scripts/e2e.mjs refuses a bad E2E_REPEAT before it starts anything', () => {
    const r = spawnSync(process.execPath, [path.join(root, 'scripts/e2e.mjs')], { encoding: 'utf8', env: { ...process.env, E2E_REPEAT: 'twice' } });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /E2E_REPEAT must be a whole number of rounds from 1 to 1000, not "twice"/);
  });
});
