// `calibrate --labels` and `labels export` in-process, on the fixtures the Python reference wrote.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import type { CliIO } from '../../src/cli/io';

const ROOT = path.resolve(__dirname, '../../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/labels');
const ref = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/reference/labels_reference.json'), 'utf8')) as { join: { n: number; accuracy: number } };

async function cli(cwd: string, ...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd, env: {} };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('judge-studio calibrate --labels', () => {
  it('joins the labels file by _key and reports the judge and the annotators side by side', async () => {
    const r = await cli(FIXTURES, 'calibrate', 'results.jsonl', '--metric', 'helpfulness', '--labels', 'labels.jsonl', '--json');
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as { n: number; accuracy: number; human_labels: { joined: number; tied: number; annotators: string[]; agreement: { krippendorff_alpha: { nominal: number } } } };
    assert.equal(json.n, ref.join.n);
    assert.equal(json.accuracy, ref.join.accuracy);
    assert.equal(json.human_labels.joined, 8);
    assert.equal(json.human_labels.tied, 1);
    assert.deepEqual(json.human_labels.annotators, ['alice', 'bob', 'carol']);
    assert.equal(typeof json.human_labels.agreement.krippendorff_alpha.nominal, 'number');
    assert.match(r.stderr, /labels\.jsonl:26: "_key" is not 16 lowercase hex/);
  });

  it('prints a Human labels section in the text report', async () => {
    const r = await cli(FIXTURES, 'calibrate', 'results.jsonl', '--metric', 'helpfulness', '--labels', 'labels.jsonl');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Human labels from labels\.jsonl/);
    assert.match(r.stdout, /Krippendorff's alpha/);
    assert.match(r.stdout, /1 row\(s\) left out: their annotators tied/);
  });

  it('says clearly when rows have no _key and no template is known', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-cli-'));
    fs.writeFileSync(path.join(dir, 'r.jsonl'), '{"prompt":"p","response":"r","m/score":3}\n');
    fs.writeFileSync(path.join(dir, 'l.jsonl'), '{"_key":"aaaaaaaaaaaaaaaa","metric":"m","label":3,"annotator":"a","time":""}\n');
    const r = await cli(dir, 'calibrate', 'r.jsonl', '--metric', 'm', '--labels', 'l.jsonl');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no "_key" and the template is unknown.*--template T/);
  });

  it('finds the template by metric name when rows have no _key', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-cli-'));
    fs.mkdirSync(path.join(dir, 'templates'));
    fs.writeFileSync(path.join(dir, 'templates', 'm.judge'), '---\nname: m\nkind: pointwise\nscale: [1, 5]\ninputs: [prompt, response]\n---\n# Criteria\nc\n');
    const { rowKey } = await import('../../src/core/results');
    const key = rowKey({ prompt: 'p', response: 'r' }, ['prompt', 'response']);
    fs.writeFileSync(path.join(dir, 'r.jsonl'), '{"prompt":"p","response":"r","m/score":3}\n');
    fs.writeFileSync(path.join(dir, 'l.jsonl'), JSON.stringify({ _key: key, metric: 'm', label: 3, annotator: 'a', time: '' }) + '\n');
    const r = await cli(dir, 'calibrate', 'r.jsonl', '--metric', 'm', '--labels', 'l.jsonl', '--json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { n: number }).n, 1);
  });
});

describe('judge-studio labels export', () => {
  it('writes the majority labels into Vertex columns of a copy of the dataset', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-cli-'));
    const out = path.join(dir, 'with-labels.jsonl');
    const r = await cli(FIXTURES, 'labels', 'export', '--labels', 'labels.jsonl', '--data', 'results.jsonl', '--out', out, '--metric', 'helpfulness');
    assert.equal(r.code, 0, r.stderr);
    const rows = fs.readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(rows.length, 10);
    assert.deepEqual(rows.map((x) => x['helpfulness/human_rating'] ?? null), [5, 1, null, 4, 4, 4, 1, 5, 5, 1]);
    assert.match(r.stderr, /10 row\(s\), 8 with a human label/);
  });

  it('refuses to overwrite the dataset itself', async () => {
    const r = await cli(FIXTURES, 'labels', 'export', '--labels', 'labels.jsonl', '--data', 'results.jsonl', '--out', 'results.jsonl');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--out must name a new file/);
  });
});
