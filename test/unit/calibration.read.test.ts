// The one-pass calibration reader: the strict line scan and the column store must give exactly
// the records that JSON.parse and the slimming of the parsed record give, for any line, hostile
// or broken; and the last line per `_row` stands.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { calibrate } from '../../src/core/calibration';
import { LENGTH_OF } from '../../src/core/calibration/bias';
import { LatestRows, readForCalibration } from '../../src/core/calibration/read';
import { Slimmer, type SlimSpec } from '../../src/core/calibration/slim';
import { createReader, readDataset, type DatasetItem } from '../../src/core/dataset';
import { mulberry32 } from '../../src/core/random';

const DEPTH = 6;

/** Items of `text` read with the scan and the store (as calibrate reads), or through JSON.parse only. */
function read(text: string, spec: SlimSpec, scan: boolean): DatasetItem[] {
  const slimmer = new Slimmer(spec, DEPTH);
  const shape = scan ? slimmer : { shape: (r: Record<string, unknown>) => slimmer.shape(r) };
  const reader = createReader('jsonl', { depth: DEPTH }, shape);
  const latest = new LatestRows(slimmer.store);
  for (const item of [...reader.push(text), ...reader.end()]) latest.add(item);
  return [...latest];
}

const KEYS = [
  '_row', '_key', 'response', 'response_a', 'response_b', 'baseline_model_response', 'prompt', '__proto__', 'q/score', 'q/human_rating',
  'q/pairwise_choice', 'q/human_pairwise_choice', 'q/error', 'q/error_kind', 'q/passes', 'q/judges', 'q/criteria', 'q/rule_violations',
  'q/score_clarity', 'q/human_rating/clarity', 'q/score_rounded', 'q/flip_rate', 'q/position_consistent', 'other/score', 'q/justification', '1',
];
const TEXTS = ['', 'A', 'b', ' TIE ', 'BASELINE', 'rate-limit', '   ', 'é😀', '"q/score": 5, "_row": 1', 'tab\there', 'line\nbreak', '\u2028', '\ud83d', 'x'.repeat(80), '\\', '0123456789abcdef'];

function value(rng: () => number, depth: number): unknown {
  const r = rng();
  if (r < 0.25) return [0, 1, 5, -0, 3.5, 1e21, -7, 99, 2 ** 31][Math.floor(rng() * 9)];
  if (r < 0.5) return TEXTS[Math.floor(rng() * TEXTS.length)];
  if (r < 0.6) return [null, true, false][Math.floor(rng() * 3)];
  if (r < 0.8 && depth < 8) return Array.from({ length: Math.floor(rng() * 3) }, () => (rng() < 0.5 ? { order: rng() < 0.5 ? 'AB' : 'BA', winner: 'A', judge: 'j', verdict: 4, rule: 'r', x: value(rng, depth + 1) } : value(rng, depth + 1)));
  if (depth < 8) return { clarity: value(rng, depth + 1), depth: 1 };
  return 1;
}

/** A JSON object line, then perhaps spaced, escaped, duplicated or broken. */
function line(rng: () => number): string {
  const parts: string[] = [];
  const n = Math.floor(rng() * 8);
  for (let i = 0; i < n; i++) {
    let key = JSON.stringify(KEYS[Math.floor(rng() * KEYS.length)]);
    if (rng() < 0.1) key = key.replace('/', '\\u002f');
    parts.push(`${key}${rng() < 0.2 ? ' : ' : ':'}${JSON.stringify(value(rng, 1))}`);
  }
  let text = `{${parts.join(rng() < 0.2 ? ' , ' : ',')}}`;
  const r = rng();
  if (r < 0.1) text = ` ${text} `;
  else if (r < 0.15) text = text.replace(':', ':\t');
  else if (r < 0.3) {
    const at = Math.floor(rng() * text.length);
    const edits = ['', '"', '\\', ',', '}', '[', '\u0001', 'x', ' ', '1', '-', '.', 'e', '\\u12', 'tru'];
    text = text.slice(0, at) + edits[Math.floor(rng() * edits.length)] + text.slice(at + (rng() < 0.5 ? 1 : 0));
  }
  return text;
}

describe('calibration reader: the line scan', () => {
  it('keeps exactly what JSON.parse and slimming keep, for random, hostile and broken lines', () => {
    const rng = mulberry32(0x5ca1);
    const lines = Array.from({ length: 4000 }, () => line(rng));
    for (const spec of [{ metric: 'q' }, { metric: 'q', keys: { fields: undefined } }, { metric: 'q', keys: { fields: ['prompt'] } }]) {
      // Line by line, so a difference names its line; then as one file, so rows replace each other.
      for (const l of lines) assert.deepStrictEqual(read(l, spec, true), read(l, spec, false), l);
      assert.deepStrictEqual(read(lines.join('\n'), spec, true), read(lines.join('\n'), spec, false));
    }
  });

  it('reads lines of one shape (the template path) exactly as JSON.parse does, broken ones included', () => {
    const rng = mulberry32(0x7e3);
    const texts = [...TEXTS, 'plain answer', 'tab\there', '\u0000', 'quote " inside', 'back\\slash', '😀'.repeat(20)];
    const numbers = ['1', '5', '-0', '3.5', '1e2', '1E-2', '0.25', '99', '01', '1.', '-', '2e', '+1', '0x1', 'null', 'true', '"4"', '[4]'];
    const lines: string[] = [];
    for (let i = 1; i <= 3000; i++) {
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
      // Mostly one shape, so the template reads most lines; now and then a value it must refuse.
      const odd = () => rng() < 0.04;
      const score = () => (odd() ? pick(numbers) : pick(numbers.slice(0, 7)));
      const response = odd() ? pick([`"raw ${pick(['\t', '\u0001', '\\x', '\\u12'])}"`, 'null', '7']) : JSON.stringify(`answer ${i} ${pick(texts)}`);
      let line = `{"prompt":${JSON.stringify(`q${i}`)},"response":${response},"_row":${odd() ? pick(numbers) : i},"q/score":${score()},"q/human_rating":${score()},"q/error":${odd() ? pick(['null', '1', '"\\n"']) : pick(['""', '" "', '"timeout"'])}}`;
      const r = rng();
      if (r < 0.01) line = line.replace(',', ' ,');
      else if (r < 0.02) line = line.replace('"_row"', '"_r\\u006fw"');
      else if (r < 0.03) line = line.slice(0, -1);
      lines.push(line);
    }
    const file = lines.join('\n');
    assert.deepStrictEqual(read(file, { metric: 'q' }, true), read(file, { metric: 'q' }, false));
  });

  it('refuses, on the template path, every value of the right place that JSON does not allow', () => {
    const bad = ['01', '1.', '-', '2e', '+1', '.5', '0x1', 'NaN', 'tru', '"\t"', '"\u0001"', '"\\x"', '"\\u12"', '"\\', '1 ', ' 1'];
    const good = ['0', '-0', '3.25', '1e2', '1E-2', '"A"', '"\\u0041"', 'true', 'null'];
    const lines: string[] = [];
    for (const [k, v] of [...bad, ...good].entries()) {
      for (let j = 0; j < 5; j++) lines.push(`{"prompt":"q","response":"a b","_row":${k * 10 + j + 1},"q/score":3,"q/human_rating":4}`);
      lines.push(`{"prompt":"q","response":"a b","_row":${k * 10 + 6},"q/score":${v},"q/human_rating":4}`);
      lines.push(`{"prompt":"q","response":${v},"_row":${k * 10 + 7},"q/score":3,"q/human_rating":4}`);
    }
    const file = lines.join('\n');
    const scanned = read(file, { metric: 'q' }, true);
    assert.deepStrictEqual(scanned, read(file, { metric: 'q' }, false));
    const invalid = lines.filter((l) => {
      try {
        JSON.parse(l);
        return false;
      } catch {
        return true;
      }
    }).length;
    assert.ok(invalid > bad.length, `${invalid} invalid lines`);
    assert.equal(scanned.filter((i) => 'error' in i).length, invalid);
  });

  it('is not fooled by a column name inside a text, and decodes escaped names', () => {
    const text = '{"response":"\\"q/score\\": 5, \\"_row\\": 9","q\\u002fscore":2,"q/human_rating":2,"_row":1}';
    const [item] = read(text, { metric: 'q' }, true);
    assert.ok(item && !('error' in item));
    assert.equal(item.record['q/score'], 2);
    assert.equal(item.record['_row'], 1);
    assert.equal((item.record as Record<symbol, unknown>)[LENGTH_OF.response], JSON.parse(text).response.length);
  });

  it('lets the last of two equal keys win, as JSON.parse does', () => {
    const [item] = read('{"q/score":1,"response":"long text","q/score":4,"response":7}', { metric: 'q' }, true);
    assert.ok(item && !('error' in item));
    assert.equal(item.record['q/score'], 4);
    assert.equal((item.record as Record<symbol, unknown>)[LENGTH_OF.response], undefined);
  });

  it('reports a broken or too deep line as the reader does', () => {
    const items = read('{"q/score": 1,}\n{"a":[[[[[[1]]]]]]}\n{"q/score":\t2}', { metric: 'q' }, true);
    assert.deepEqual(
      items.map((i) => ('error' in i ? i.reason : i.record['q/score'])),
      ['invalid-json', 'too-deep', 2],
    );
  });
});

describe('calibration reader: one pass over a file', () => {
  let dir: string;
  before(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-calread-'))));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('keeps the last line per _row in file order, and calibrates as the full records do', async () => {
    const file = path.join(dir, 'r.jsonl');
    const rows = [
      { _row: 1, 'q/human_rating': 5, 'q/score': 1, response: 'short' },
      { _row: 2, 'q/human_rating': 3, 'q/score': null, 'q/error': 'timeout', 'q/error_kind': 'timeout', response: 'medium one' },
      { _row: 3, 'q/human_rating': 1, 'q/score': 1, response: 'x'.repeat(300) },
      { _row: 1, 'q/human_rating': 5, 'q/score': 5, response: 'short again' },
      { _row: 2, 'q/human_rating': 3, 'q/score': 3, response: 'medium' },
    ];
    fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\nnot json\n');
    const latest = await readForCalibration(file, { metric: 'q' });
    assert.deepEqual([...latest].map((i) => ('error' in i ? 'skip' : i.record['_row'])), [3, 1, 2, 'skip']);
    assert.equal(latest.replacedCount, 2);
    // The same report as the two-pass reading of full records.
    const full: DatasetItem[] = [];
    for await (const item of readDataset(file)) full.push(item);
    const standing = full.filter((i, k) => 'error' in i || ![0, 1].includes(k));
    assert.deepEqual(await calibrate(latest, 'q'), await calibrate(standing, 'q'));
  });

  it('reads every row of a file whose first lines make it look shorter or longer than it is', async () => {
    // The reader sizes its arrays from the first 64 KB: long lines first (too few rows expected),
    // then short ones, and the other way round (too many). Either way, every row and the last per _row.
    for (const order of ['long-first', 'short-first']) {
      const file = path.join(dir, `${order}.jsonl`);
      const long = Array.from({ length: 40 }, (_, i) => ({ _row: i + 1, 'q/human_rating': 1 + (i % 5), 'q/score': 1 + (i % 5), response: 'w '.repeat(2_000) }));
      const short = Array.from({ length: 5_000 }, (_, i) => ({ _row: i + 41, 'q/human_rating': 1 + (i % 5), 'q/score': 1 + ((i + 1) % 5) }));
      const rows = order === 'long-first' ? [...long, ...short] : [...short, ...long];
      fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + `\n${JSON.stringify({ _row: 7, 'q/human_rating': 2, 'q/score': 2 })}\n`);
      const latest = await readForCalibration(file, { metric: 'q' });
      assert.equal(latest.size, 5_040, order);
      assert.equal(latest.replacedCount, 1, order);
      const full: DatasetItem[] = [];
      for await (const item of readDataset(file)) full.push(item);
      const standing = full.filter((i) => 'error' in i || i.record['_row'] !== 7 || i.line === 5_041);
      assert.deepEqual(await calibrate(latest, 'q'), await calibrate(standing, 'q'), order);
    }
  });
});
