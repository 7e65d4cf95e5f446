// Memory to judge one big row: a JSONL dataset whose single row holds a 50 MB `response`, read,
// rendered and judged (in-process fake client, result line serialised as the results writer does).
// Each stage runs in its own child process and reports its peak resident memory (VmHWM) above
// the process's baseline, so the figures are peaks, not samples between collections.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readDataset, isSkip, type DatasetRow } from '../src/core/dataset';
import { prepareJudge } from '../src/core/judge/engine/prepare';
import { runJudge } from '../src/core/judge/run/runner';
import type { JudgeClient } from '../src/core/judge/transport/types';
import { POINTWISE } from '../test/support/judgeFixtures';

export const FIELD_MB = 50;
/** The target: judging the row costs at most this many times the field's size in peak memory. */
export const TARGET_FACTOR = 6;

type Stage = 'read' | 'render' | 'judge';
const STAGES: Stage[] = ['read', 'render', 'judge'];

function peakRssMb(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : process.memoryUsage().rss / 1024 / 1024;
}

/** Resets the peak to the current resident size (Linux: write 5 to clear_refs). */
function resetPeak(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

const client: JudgeClient = {
  id: 'bench:instant',
  async complete(req) {
    // Touch the prompt the way a client must (it sends it), without keeping a copy.
    const size = req.messages.reduce((n, m) => n + m.content.length, 0);
    return { text: `{"justification": "read ${size} characters", "score": 3}`, model: req.model };
  },
};

async function firstRow(file: string): Promise<DatasetRow> {
  for await (const item of readDataset(file)) if (!isSkip(item)) return item;
  throw new Error('bench dataset has no row');
}

/** Runs in the child: one stage, then prints {base, peak} in MB. */
async function child(file: string, stage: Stage): Promise<void> {
  const judge = prepareJudge(POINTWISE);
  if (!judge.ok) throw new Error('bench template is invalid');
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().rss / 1024 / 1024;
  const exact = resetPeak();
  if (stage === 'read') {
    const row = await firstRow(file);
    if (typeof row.record.response !== 'string') throw new Error('no response');
  } else if (stage === 'render') {
    const row = await firstRow(file);
    const out = judge.judge.render(row.record, 'AB', row.row);
    if (!out.ok) throw new Error(out.error);
  } else {
    let bytes = 0;
    const { stats } = await runJudge({
      judge: judge.judge,
      client,
      settings: { model: 'm', structured: 'none', schemaName: judge.judge.metric },
      items: readDataset(file),
      write: (line) => void (bytes += JSON.stringify(line).length + 1),
    });
    if (stats.ok !== 1 || bytes < FIELD_MB * 1e6) throw new Error(`judged ${stats.ok} rows, wrote ${bytes} bytes`);
  }
  process.stdout.write(JSON.stringify({ base, peak: peakRssMb(), exact }));
}

export async function benchDataset(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-bench-big-'));
  const file = path.join(dir, 'big.jsonl');
  try {
    const response = 'All work and no play. '.repeat(Math.ceil((FIELD_MB * 1e6) / 22)).slice(0, FIELD_MB * 1e6);
    fs.writeFileSync(file, `${JSON.stringify({ prompt: 'Summarise the text.', response })}\n`);
    for (const stage of STAGES) {
      const r = spawnSync(process.execPath, ['--expose-gc', __filename, '--child', file, stage], { encoding: 'utf8', maxBuffer: 1 << 20 });
      if (r.status !== 0) throw new Error(`stage ${stage} failed: ${r.stderr}`);
      const { base, peak, exact } = JSON.parse(r.stdout) as { base: number; peak: number; exact: boolean };
      const used = peak - base;
      const factor = used / FIELD_MB;
      const verdict = stage === 'judge' ? ` (target ≤ ${TARGET_FACTOR}× = ${FIELD_MB * TARGET_FACTOR} MB: ${factor <= TARGET_FACTOR ? 'within' : 'OVER'})` : '';
      console.log(
        `dataset memory (${stage}): one row with a ${FIELD_MB} MB field: peak ${used.toFixed(0)} MB above a ${base.toFixed(0)} MB baseline = ${factor.toFixed(1)}× the field${verdict}` +
          (exact ? '' : ' [peak not resettable here: includes start-up]'),
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const [flag, file, stage] = process.argv.slice(2);
  const run = flag === '--child' && file && stage ? child(file, stage as Stage) : benchDataset();
  run.catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
