// Regenerates examples/fluency_pairwise.results.jsonl, the demo input for `judge-studio calibrate`.
// The verdicts come from the test suite's stand-in judge (test/support/fakeOpenAI.ts), which
// always prefers the LONGER response: a deliberately length-biased judge, so the calibration
// report has something real to show (agreement with humans and a length preference).
// Needs `npm run build && npm run compile-tests` first.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { FakeOpenAI } = createRequire(import.meta.url)(path.join(root, 'out/test/support/fakeOpenAI.js'));

const out = path.join(root, 'examples/fluency_pairwise.results.jsonl');
const args = ['run', 'examples/fluency_pairwise.judge', '--data', 'examples/fluency_pairwise.jsonl',
  '--model', 'stand-in-longer-wins', '--no-cache', '--concurrency', '1', '--overwrite', '--out', out];

const fake = await FakeOpenAI.start();
// The CLI runs in a child process so that this one stays free to answer its requests.
const code = await new Promise((resolve) => {
  spawn(process.execPath, [path.join(root, 'dist/cli.js'), ...args, '--base-url', fake.baseURL], { cwd: root, stdio: 'inherit' })
    .on('exit', resolve);
});
await fake.close();
process.exit(code ?? 1);
