// `npm run screenshots`: runs the real-VS-Code UI tests that take the README's pictures, then
// copies those pictures into docs/images/, so the README always shows the product as it is.
// --no-run copies from the newest e2e run instead (after `npm test`, say).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = path.join(root, '.test-output/e2e');
const target = path.join(root, 'docs/images');

/** docs/images/<name> ← the UI test screenshot that shows it. */
const PICTURES = {
  'editor-diagnostics.png': 'editor-diagnostics.png',
  'new-file-completion.png': 'new-file-completion.png',
  'preview.png': 'preview-helpfulness-row-1.png',
  'run-pairwise.png': 'entry-pairwise-swapped.png',
  'run-hhh-violation.png': 'run-hhh-violation.png',
  'side-panel.png': 'side-panel.png',
  'calibration-heatmap.png': 'calibrate-heatmap.png',
  'demo-1-highlight.png': 'demo-1-highlight.png',
  'demo-2-right-click.png': 'demo-2-right-click.png',
  'demo-3-choose-template.png': 'demo-3-choose-template.png',
  'demo-4-verdict.png': 'demo-4-verdict.png',
  'results-viewer.png': 'results-open-after-run.png',
  'review.png': 'review-disagreement.png',
  'compare.png': 'history-compare-view.png',
};
/** The UI tests (file names) that take them. */
const TESTS = ['editor', 'preview', 'entry-points', 'run-violation', 'calibrate', 'results-open', 'review', 'history-compare'];

const { values } = parseArgs({ options: { 'no-run': { type: 'boolean' } } });

if (!values['no-run']) {
  const steps = [
    ['npm', ['run', 'build']],
    ['npm', ['run', 'compile-tests']],
    ['npm', ['run', 'test:e2e']],
  ];
  for (const [cmd, args] of steps) {
    const env = { ...process.env, E2E_GREP: `^(${TESTS.join('|')}) ` };
    const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`screenshots: \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal}); docs/images is unchanged`);
      process.exit(1);
    }
  }
}

// The newest run that holds every picture (runs are named by their start time).
const candidates = existsSync(runs) ? readdirSync(runs).filter((d) => d.startsWith('run-')).sort().reverse() : [];
const wanted = Object.values(PICTURES);
const run = candidates.find((d) => wanted.every((f) => existsSync(path.join(runs, d, 'screenshots', f))));
if (!run) {
  const newest = candidates[0];
  const missing = newest ? wanted.filter((f) => !existsSync(path.join(runs, newest, 'screenshots', f))) : wanted;
  console.error(`screenshots: no e2e run under ${path.relative(root, runs)} has every picture (the newest lacks ${missing.join(', ')}); run \`npm run screenshots\` without --no-run`);
  process.exit(1);
}
mkdirSync(target, { recursive: true });
for (const [name, shot] of Object.entries(PICTURES)) copyFileSync(path.join(runs, run, 'screenshots', shot), path.join(target, name));
console.log(`screenshots: ${Object.keys(PICTURES).length} pictures copied from ${path.relative(root, path.join(runs, run))} to docs/images/`);
