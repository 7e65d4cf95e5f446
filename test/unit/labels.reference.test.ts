// Labels against test/reference/labels_reference.json, which a plain-Python implementation of the
// definitions computed (and whose fixtures, with their keys, it wrote): row keys, standing labels,
// majorities, Cohen's kappa, Krippendorff's alpha (including Krippendorff 2011's published
// example), Wilson intervals, labels needed for a width, and the join into calibrate.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrate } from '../../src/core/calibration';
import { readDataset } from '../../src/core/dataset';
import {
  annotatorAgreement,
  annotatorKappa,
  humanLabels,
  joinLabels,
  krippendorffAlpha,
  labelsForWidth,
  readLabels,
  wilson,
  type LabelValue,
  type ReliabilityData,
} from '../../src/core/labels';
import { latestPerRow, rowKey } from '../../src/core/results';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/labels');
const ref = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/reference/labels_reference.json'), 'utf8')) as Reference;

interface Reference {
  row_keys: { record: Record<string, unknown>; key: string }[];
  krippendorff_2011: { data: (number | null)[][]; nominal: number; ordinal: number; interval: number };
  labels: { metric: string; majority: Record<string, LabelValue>; tied: number; annotators: string[]; alpha_nominal: number; alpha_ordinal: number; alpha_interval: number; units: number };
  kappa_alice_bob: { pairs: [LabelValue, LabelValue][]; kappa: number };
  join: { n: number; accuracy: number; cohen_kappa: number; pairs: [number, number][] };
  wilson: { k: number; n: number; low: number; high: number }[];
  labels_for_width: { k: number; n: number; width: number; total: number }[];
}

function close(actual: number | null | undefined, expected: number, what: string): void {
  assert.equal(typeof actual, 'number', `${what}: expected ${expected}, got ${String(actual)}`);
  assert.ok(Math.abs((actual as number) - expected) <= 1e-9, `${what}: expected ${expected}, got ${String(actual)}`);
}

describe('labels against the independent Python reference', () => {
  it('computes the same row keys as Python did when it wrote the fixture', () => {
    for (const { record, key } of ref.row_keys) assert.equal(rowKey(record, ['prompt', 'response']), key);
  });

  it("reproduces Krippendorff (2011)'s published example: nominal 0.743, ordinal 0.815, interval 0.849", () => {
    const observers = ref.krippendorff_2011.data;
    const units: ReliabilityData = observers[0]!.map((_, u) => observers.map((o) => o[u] ?? undefined));
    const nominal = krippendorffAlpha(units, 'nominal');
    close(nominal, ref.krippendorff_2011.nominal, 'nominal alpha');
    assert.equal(nominal?.toFixed(3), '0.743');
    close(krippendorffAlpha(units, 'ordinal'), ref.krippendorff_2011.ordinal, 'ordinal alpha');
    assert.equal(krippendorffAlpha(units, 'ordinal')?.toFixed(3), '0.815');
    close(krippendorffAlpha(units, 'interval'), ref.krippendorff_2011.interval, 'interval alpha');
    assert.equal(krippendorffAlpha(units, 'interval')?.toFixed(3), '0.849');
  });

  it('finds the same majority labels and ties after relabels and retractions', async () => {
    const { lines, skipped } = await readLabels(path.join(FIXTURES, 'labels.jsonl'));
    assert.equal(skipped.length, 1, 'the line with a malformed key is skipped');
    const human = humanLabels(lines, ref.labels.metric);
    assert.deepEqual(Object.fromEntries([...human.labels].sort(([a], [b]) => (a < b ? -1 : 1))), ref.labels.majority);
    assert.equal(human.tied, ref.labels.tied);
    assert.deepEqual(human.annotators, ref.labels.annotators);
    assert.deepEqual(human.fields, ['prompt', 'response']);
  });

  it("matches Krippendorff's alpha over three annotators with missing labels", async () => {
    const { lines } = await readLabels(path.join(FIXTURES, 'labels.jsonl'));
    const a = annotatorAgreement(lines, ref.labels.metric);
    assert.ok(a);
    assert.deepEqual(a.annotators, ref.labels.annotators);
    assert.equal(a.units, ref.labels.units);
    close(a.krippendorff_alpha.nominal, ref.labels.alpha_nominal, 'nominal');
    close(a.krippendorff_alpha.ordinal, ref.labels.alpha_ordinal, 'ordinal');
    close(a.krippendorff_alpha.interval, ref.labels.alpha_interval, 'interval');
    assert.equal(a.cohen_kappa, null, "Cohen's kappa is for exactly two annotators");
  });

  it("matches Cohen's kappa between two annotators", async () => {
    close(annotatorKappa(ref.kappa_alice_bob.pairs), ref.kappa_alice_bob.kappa, 'kappa');
    const { lines } = await readLabels(path.join(FIXTURES, 'labels.jsonl'));
    const two = annotatorAgreement(lines.filter((l) => l.annotator !== 'carol'), ref.labels.metric);
    assert.ok(two);
    close(two.cohen_kappa, ref.kappa_alice_bob.kappa, 'kappa from the file');
    assert.equal(two.kappa_n, ref.kappa_alice_bob.pairs.length);
  });

  it('matches Wilson 95% intervals and the labels needed for a width', () => {
    for (const w of ref.wilson) {
      const got = wilson(w.k, w.n);
      close(got?.low, w.low, `low of ${w.k}/${w.n}`);
      close(got?.high, w.high, `high of ${w.k}/${w.n}`);
    }
    for (const c of ref.labels_for_width) assert.equal(labelsForWidth(c.k, c.n, c.width), c.total, `${c.k}/${c.n} to width ${c.width}`);
  });

  it('joins labels into calibrate: a label wins over the Vertex column, rows without _key use the recorded fields', async () => {
    const { lines } = await readLabels(path.join(FIXTURES, 'labels.jsonl'));
    const human = humanLabels(lines, ref.labels.metric);
    const file = path.join(FIXTURES, 'results.jsonl');
    const joined = joinLabels(latestPerRow(() => readDataset(file)), ref.labels.metric, human, human.fields);
    const outcome = await calibrate(joined.items, ref.labels.metric);
    if (!outcome.ok) assert.fail(outcome.error);
    assert.equal(outcome.report.n, ref.join.n);
    close(outcome.report.accuracy, ref.join.accuracy, 'accuracy');
    close(outcome.report.cohen_kappa, ref.join.cohen_kappa, 'kappa');
    assert.deepEqual(joined.stats, { joined: 8, overridden: 1, without_key: 0, unmatched: 1, tied: 1 });
  });
});
