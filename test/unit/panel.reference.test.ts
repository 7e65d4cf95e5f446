// Panel agreement figures against test/reference/panel_reference.json, which a plain-Python
// implementation of the definitions computed (and whose fixtures it wrote): Krippendorff's alpha
// (with Krippendorff 2011's published example), Fleiss' kappa as statsmodels computes it (with
// Fleiss 1971's table), the judge × judge Cohen's kappa matrix, each judge against the humans, the
// error correlation, the effective number of judges and the stability of sampled verdicts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fleissKappa, PanelCollector } from '../../src/core/calibration/panel';
import { readDataset } from '../../src/core/dataset';
import { isSkip } from '../../src/core/dataset/types';
import { krippendorffAlpha, type ReliabilityData } from '../../src/core/labels';

const ROOT = path.resolve(__dirname, '../../..');
const ref = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/reference/panel_reference.json'), 'utf8')) as Record<string, any>;

function close(actual: unknown, expected: number | null, what: string): void {
  if (expected === null) return assert.equal(actual, null, `${what}: expected null`);
  assert.equal(typeof actual, 'number', `${what}: expected ${expected}, got ${String(actual)}`);
  assert.ok(Math.abs((actual as number) - expected) <= 1e-9, `${what}: expected ${expected}, got ${String(actual)}`);
}

async function collect(kind: 'pointwise' | 'pairwise') {
  const { file, metric } = ref[kind] as { file: string; metric: string };
  const c = new PanelCollector(metric);
  for await (const item of readDataset(path.join(ROOT, file))) if (!isSkip(item)) c.add(item);
  return { figures: (await c.figures(kind))!, stability: c.stability()! };
}

describe('panel agreement against the independent Python reference', () => {
  it("reproduces Krippendorff (2011)'s published example: nominal 0.743, ordinal 0.815, interval 0.849", () => {
    const units: ReliabilityData = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((u) => [0, 1, 2, 3].map((c) => KRIPP[c]![u] ?? undefined));
    for (const level of ['nominal', 'ordinal', 'interval'] as const) close(krippendorffAlpha(units, level), ref.krippendorff_2011[level], level);
    assert.deepEqual((['nominal', 'ordinal', 'interval'] as const).map((l) => krippendorffAlpha(units, l)?.toFixed(3)), ['0.743', '0.815', '0.849']);
  });

  it("computes Fleiss' kappa as statsmodels does, 0.210 on Fleiss (1971)'s table", () => {
    close(fleissKappa(ref.fleiss_1971.table), ref.fleiss_1971.kappa, 'fleiss 1971');
    assert.equal(fleissKappa(ref.fleiss_1971.table)?.toFixed(3), '0.210');
    assert.equal(fleissKappa([[2, 0], [2, 1]]), null, 'rows with different numbers of raters');
    assert.equal(fleissKappa([[2], [2]]), null, 'one category: chance agreement is 1, kappa undefined');
  });

  for (const kind of ['pointwise', 'pairwise'] as const) {
    it(`matches every ${kind} panel figure`, async () => {
      const { figures: f, stability } = await collect(kind);
      const e = ref[kind].figures;
      assert.deepEqual(f.judges, e.judges);
      assert.equal(f.rows, e.rows);
      assert.equal(f.alpha_units, e.alpha_units);
      for (const level of Object.keys(e.krippendorff_alpha)) close(f.krippendorff_alpha[level as 'nominal'], e.krippendorff_alpha[level], `alpha ${level}`);
      assert.deepEqual(Object.keys(f.krippendorff_alpha).sort(), Object.keys(e.krippendorff_alpha).sort());
      close(f.fleiss_kappa, e.fleiss_kappa, 'fleiss');
      assert.equal(f.fleiss_n, e.fleiss_n);
      f.cohen_kappa.forEach((row, i) => row.forEach((k, j) => close(k, e.cohen_kappa[i][j], `cohen ${i},${j}`)));
      assert.deepEqual(f.cohen_n, e.cohen_n);
      f.per_judge.forEach((j, i) => {
        const x = e.per_judge[i];
        assert.equal(j.judge, x.judge);
        assert.equal(j.n, x.n);
        close(j.accuracy, x.accuracy, `${j.judge} accuracy`);
        close(j.cohen_kappa, x.cohen_kappa, `${j.judge} kappa`);
        if (kind === 'pointwise') close(j.quadratic_weighted_kappa, x.quadratic_weighted_kappa, `${j.judge} qwk`);
      });
      close(f.error_correlation, e.error_correlation, 'error correlation');
      assert.equal(f.error_pairs, e.error_pairs);
      close(f.effective_judges, e.effective_judges, 'effective judges');
      assert.equal(stability.rows, e.stability.rows);
      close(stability.mean_flip_rate, e.stability.mean_flip_rate, 'mean flip rate');
      assert.deepEqual(stability.least_stable.map((r) => r.row), e.stability.least_stable_rows);
    });
  }
});

const KRIPP: (number | null)[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

describe('judge-studio calibrate on a panel results file', () => {
  it('adds the panel figures under `panel` and the stability under `stability` in --json, and a text section', async () => {
    const { calibrateCommand } = await import('../../src/cli/commands/calibrate');
    const { captureIO } = await import('../support/judgeFixtures');
    const json = captureIO(ROOT);
    assert.equal(await calibrateCommand(['test/fixtures/panel/pairwise.results.jsonl', '--metric', 'pref', '--json'], json), 0, json.err);
    const report = JSON.parse(json.out) as { panel: { fleiss_kappa: number; judges: string[] }; stability: { rows: number } };
    close(report.panel.fleiss_kappa, ref.pairwise.figures.fleiss_kappa, 'fleiss via the CLI');
    assert.deepEqual(report.panel.judges, ['llama3', 'qwen2', 'phi3']);
    assert.equal(report.stability.rows, 20);
    const text = captureIO(ROOT);
    assert.equal(await calibrateCommand(['test/fixtures/panel/pointwise.results.jsonl', '--metric', 'quality'], text), 0);
    assert.match(text.out, /Panel of 4 judge\(s\) over 60 row\(s\)/);
    assert.match(text.out, /effective independent judges 1\.863 of 4/);
    assert.match(text.out, /Judge × judge Cohen's kappa/);
    assert.match(text.out, /least stable rows +33 \(0\.54\)/);
  });
});

describe('calibration view of a panel results file', () => {
  it('carries the panel figures (the same numbers as the reference) into a view the protocol accepts', async () => {
    const { calibrateFile } = await import('../../src/extension/calibrate/load');
    const { buildView } = await import('../../src/extension/calibrate/model');
    const { hostMessageSchema } = await import('../../src/protocol/calibrate');
    const outcome = await calibrateFile(path.join(ROOT, 'test/fixtures/panel/pointwise.results.jsonl'), 'quality', 'pointwise.results.jsonl');
    assert.ok(outcome.ok);
    const view = buildView({ file: 'f', display: 'f', report: outcome.report, notes: [], notesOmitted: 0, runView: false, panel: outcome.panel });
    assert.ok(hostMessageSchema.safeParse({ type: 'report', view }).success);
    const e = ref.pointwise.figures;
    assert.deepEqual(view.panel?.judges, e.judges);
    close(view.panel?.fleiss, e.fleiss_kappa, 'fleiss in the view');
    close(view.panel?.kappa[0]?.[1], e.cohen_kappa[0][1], 'kappa 0,1 in the view');
    close(view.panel?.effectiveJudges, e.effective_judges, 'effective judges in the view');
    assert.deepEqual(view.panel?.alpha.map((a) => a.level), ['nominal', 'ordinal', 'interval']);
  });
});
