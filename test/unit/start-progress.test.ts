// `npm start`'s progress: numbered steps with their time, a heartbeat while a quiet step runs, and
// the URL framed so it stands out (scripts/lib/progress.mjs, run in a child node process: it is ESM).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(__dirname, '../../..');
const lib = pathToFileURL(path.join(root, 'scripts/lib/progress.mjs')).href;

function runModule(body: string): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', `import * as p from ${JSON.stringify(lib)};\n${body}`], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
}

describe('npm start progress', () => {
  it('numbers the steps, times each one, and reports a quiet step while it runs', () => {
    const out = runModule(`
      let t = 0;
      const lines = [];
      const out = { write: (s) => lines.push(s) };
      const progress = p.createProgress(2, { out, color: false, now: () => t, everyMs: 20 });
      const a = progress.step('Building');
      t = 8100;
      a.done();
      const b = progress.step('Installing code-server');
      await b.watch(new Promise((r) => setTimeout(() => { t = 8100 + 125000; r(); }, 70)), 'installing code-server', () => '312 packages unpacked');
      b.done('ok');
      process.stdout.write(lines.join(''));
    `);
    assert.match(out, /^\n\[1\/2\] Building\n {6}✓ 8\.1 s\n\n\[2\/2\] Installing code-server\n/);
    assert.match(out, / {6}… still installing code-server \(0\.0 s · 312 packages unpacked\)\n/);
    assert.match(out, / {6}✓ ok · 2 min 05 s\n$/);
  });

  it('frames the URL on a line of its own', () => {
    const out = runModule(`process.stdout.write(p.banner(['Open:', '  http://127.0.0.1:8080/?folder=/x'], { color: false }));`);
    assert.equal(out, ['╔══════════════════════════════════════╗', '║  Open:                               ║', '║    http://127.0.0.1:8080/?folder=/x  ║', '╚══════════════════════════════════════╝'].join('\n'));
  });

  it('uses colour only on a terminal and never with NO_COLOR', () => {
    assert.equal(runModule(`process.stdout.write(String(p.useColor({ isTTY: true }, {})) + String(p.useColor({ isTTY: true }, { NO_COLOR: '' })) + String(p.useColor({ isTTY: false }, {})));`), 'truefalsefalse');
  });
});
