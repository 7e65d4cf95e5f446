// The editor while a batch appends rows: the calibration view re-reads a 100,000-row results file
// incrementally and recalculates in pieces. Measured: the longest stretch the event loop (the
// extension host's, in the editor) is blocked, target < 100 ms, and the time one update takes.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { calibrateGrowing, GrowingFile } from '../src/extension/calibrate/load';

const ROWS = 100_000;
const APPENDS = 20;
const TARGET_MS = 100;

const line = (i: number) => `${JSON.stringify({ prompt: `q${i}`, response: 'r'.repeat(i % 60), 'm/human_rating': 1 + (i % 5), 'm/score': 1 + ((i * 7) % 5), _row: i })}\n`;

export async function benchEditor(): Promise<void> {
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
    console.log(`calibration view, ${ROWS.toLocaleString('en')}-row results file, ${APPENDS} appended rows:`);
    console.log(`  one update (read the new bytes, recalculate): mean ${mean.toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`);
    console.log(`  longest event-loop block: ${maxBlockMs.toFixed(0)} ms (target < ${TARGET_MS} ms) ${maxBlockMs < TARGET_MS ? 'OK' : 'OVER TARGET'}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
