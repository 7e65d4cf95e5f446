// The editor: (1) start-up, what activation loads of the built extension (dist/, the production
// build `npm run bench` makes) and how long loading it and activate() take in node with a
// stand-in `vscode`; (2) the calibration view while a batch appends rows: it re-reads a
// 100,000-row results file incrementally, and the longest stretch the event loop (the extension
// host's, in the editor) is blocked must stay under 100 ms.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { calibrateGrowing, GrowingFile } from '../src/extension/calibrate/load';
import { best, ok, ROOT, runNode, runs, spread, type Figure } from './measure';

const ROWS = 100_000;
const APPENDS = 20;
const TARGET_MS = 100;

const line = (i: number) => `${JSON.stringify({ prompt: `q${i}`, response: 'r'.repeat(i % 60), 'm/human_rating': 1 + (i % 5), 'm/score': 1 + ((i * 7) % 5), _row: i })}\n`;

async function growingView(): Promise<Figure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-bench-editor-'));
  const file = path.join(dir, 'm.results.jsonl');
  try {
    const fd = fs.openSync(file, 'w');
    for (let i = 1; i <= ROWS; i += 1000) fs.writeSync(fd, Array.from({ length: 1000 }, (_, k) => line(i + k)).join(''));
    fs.closeSync(fd);
    const source = new GrowingFile(file);
    const first = await calibrateGrowing(source, 'm', 'm.results.jsonl');
    if (!first.ok) throw new Error(first.error);

    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    const times: number[] = [];
    for (let k = 1; k <= APPENDS; k++) {
      fs.appendFileSync(file, line(ROWS + k));
      const started = performance.now();
      const out = await calibrateGrowing(source, 'm', 'm.results.jsonl');
      times.push(performance.now() - started);
      if (!out.ok || out.report.n !== ROWS + k) throw new Error(`update ${k} saw ${out.ok ? out.report.n : out.error}`);
    }
    histogram.disable();
    const maxBlockMs = histogram.max / 1e6;
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    return {
      work: `calibration view of a ${ROWS.toLocaleString('en')}-row results file while rows are appended: longest event-loop block`,
      value: `${maxBlockMs.toFixed(0)} ms`,
      target: `< ${TARGET_MS} ms`,
      pass: maxBlockMs < TARGET_MS,
      note: `one update (read the new bytes, recalculate): mean ${mean.toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Files an ES module loads before it runs: itself and its static imports, transitively. */
function staticClosure(file: string): string[] {
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const text = fs.readFileSync(f, 'utf8');
    // `import … from "./x.mjs"` and `export … from "./x.mjs"`; `import("./x.mjs")` is on first use.
    for (const m of text.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{},\s]*?\s*from\s*)?"(\.[^"]+\.mjs)"/g)) stack.push(path.resolve(path.dirname(f), m[1]!));
  }
  return [...seen];
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : e.name.endsWith('.mjs') ? [path.join(dir, e.name)] : []));
}

async function startUp(): Promise<Figure[]> {
  const shim = path.join(ROOT, 'dist', 'extension.js');
  const entry = path.join(ROOT, 'dist', 'extension', 'main.mjs');
  if (!fs.existsSync(entry)) throw new Error('dist/extension/main.mjs is missing: build first (node esbuild.mjs --production)');
  const kb = (files: string[]) => files.reduce((n, f) => n + fs.statSync(f).size, 0) / 1024;
  const loaded = [shim, ...staticClosure(entry)];
  const all = [shim, ...filesUnder(path.join(ROOT, 'dist', 'extension'))];
  // The chunks of the dynamic imports for the openai client, the Batch API commands and the probes.
  const lazy = all.filter((f) => /[\\/](openaiClient|commands|feature)-[A-Z0-9]+\.mjs$/.test(f));
  const lazyLoaded = lazy.filter((f) => loaded.includes(f));
  // The openai SDK's client sends X-Stainless-* headers: a file naming them is the SDK, wherever esbuild put it.
  const sdkLoaded = loaded.filter((f) => fs.readFileSync(f, 'utf8').includes('X-Stainless'));
  const times: number[] = [];
  let failures: string[] = [];
  for (let i = 0; i < runs(); i++) {
    const run = ok(await runNode(path.join(__dirname, 'activate.js'), [shim, ROOT]), 'activating the extension');
    const out = JSON.parse(run.stdout) as { ms: number; failures: string[] };
    times.push(out.ms);
    failures = out.failures;
  }
  return [
    {
      work: 'editor start-up: what activation loads of the extension (production build)',
      value: `${kb(loaded).toFixed(0)} KB of ${kb(all).toFixed(0)} KB`,
      target: 'openai, batch and probe code on first use',
      pass: lazy.length === 3 && lazyLoaded.length === 0 && sdkLoaded.length === 0,
      note: `${loaded.length} of ${all.length} files; first use adds ${lazy.map((f) => `${path.basename(f).replace(/-\w+\.mjs$/, '')} ${kb(staticClosure(f).filter((x) => !loaded.includes(x))).toFixed(0)} KB`).join(', ') || 'nothing found'}${lazyLoaded.length ? `; loaded at activation: ${lazyLoaded.map((f) => path.basename(f)).join(', ')}` : ''}${sdkLoaded.length ? `; the openai SDK is loaded at activation, in ${sdkLoaded.map((f) => path.basename(f)).join(', ')}` : ''}`,
    },
    {
      work: 'editor start-up: load + activate() in node with a stand-in vscode API',
      value: `${best(times).toFixed(0)} ms`,
      target: 'reported',
      pass: failures.length === 0 ? undefined : false,
      note: `runs: ${spread(times, 0, ' ms')}${failures.length ? `; features that failed to start: ${failures.join('; ')}` : ''}`,
    },
  ];
}

export async function editorFigures(): Promise<Figure[]> {
  return [...(await startUp()), await growingView()];
}
