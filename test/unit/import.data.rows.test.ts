// `import-data` keeps every row it can read: a response written as a JSON scalar (PandaLM's test set
// has six `true`s) is read as its text, and rows that repeat another row's inputs are all written and
// reported with their shared `_key`. Optional: PandaLM's real test set from ../shared/data, when present.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_FINDINGS } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { importData } from '../../src/core/import/data/importData';
import { rowKey } from '../../src/core/results';
import { captureIO, readJsonl, tempDir } from '../support/judgeFixtures';
import { sharedData } from '../support/sharedData';

const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/import/data/pandalm_repeats.json');
const opts = { metric: 'm', sourceName: 'fixture', time: '2026-12-01T00:00:00.000Z' };

describe('import-data keeps every row', () => {
  const r = importData('pandalm', fs.readFileSync(FIXTURE, 'utf8'), opts);
  const messages = r.problems.map((p) => p.message);

  it('reads a number or true/false in a text field as its text, and names the rows', () => {
    assert.deepEqual(r.rows.map((x) => [x.idx, x.response_a, x.response_b]), [
      [0, 'Yes, water makes things wet.', 'true'],
      [1, '3', 'A triangle has four sides.'],
      [2, 'Could you pass me the stapler, please?', 'Stapler. Now.'],
      [3, 'Could you pass me the stapler, please?', 'Stapler. Now.'],
    ]);
    const warning = r.problems.find((p) => p.where === 'rows');
    assert.equal(warning?.severity, 'warning');
    assert.match(warning!.message, /^2 row\(s\) have a number or true\/false where text belongs, read as its text \(true → "true", 3 → "3"\): item 1 \(response2\), item 2 \(response1\); null is read as absent/);
  });

  it('reads null as absent: an empty input, and a row whose response is null is skipped with its item', () => {
    assert.equal(r.rows[0]!.input, '');
    const skipped = r.problems.filter((p) => p.severity === 'error');
    assert.deepEqual(skipped.map((p) => p.where), ['item 5']);
    assert.match(skipped[0]!.message, /needs text fields "instruction", "response1" and "response2"; skipped/);
  });

  it('writes both rows of a repeated pair, each with its own human label, and reports their shared _key', () => {
    assert.equal(r.repeated, 1);
    assert.deepEqual(r.rows.slice(2).map((x) => x['m/human_pairwise_choice']), ['A', 'A']);
    const key = rowKey(r.rows[2]!, r.keyFields);
    assert.equal(rowKey(r.rows[3]!, r.keyFields), key);
    assert.equal(r.labels.filter((l) => l._key === key).length, 6, 'both rows\' votes are in the labels file');
    const warning = messages.find((m) => /share its _key/.test(m));
    assert.ok(warning, messages.join(' | '));
    assert.match(warning!, new RegExp(`^1 row\\(s\\) repeat the input, prompt, response_a, response_b of an earlier row, so they share its _key: ${key} \\(dataset rows 3, 4\\)\\. Every row is written`));
    assert.match(warning!, /calibrate --labels join by _key.*the later row's votes replace the earlier's.*import with --template/);
  });

  it('bounds the list of repeated keys', () => {
    const rows = Array.from({ length: 7 }, (_, i) => [i, i]).flat().map((n) => ({ instruction: `q${n}`, input: '', response1: 'a', response2: 'b', annotator1: 1 }));
    const w = importData('pandalm', JSON.stringify(rows), opts).problems.find((p) => /share its _key/.test(p.message))!;
    assert.match(w.message, /^7 row\(s\) repeat/);
    assert.match(w.message, /\(dataset rows 9, 10\), … \(7 in all\)\./);
  });

  it('prints both warnings through the CLI and writes every readable row', async () => {
    const dir = tempDir();
    const io = captureIO(dir, {});
    const code = await main(['import-data', 'pandalm', FIXTURE, '--out', 'p.jsonl', '--metric', 'm'], io);
    assert.equal(code, EXIT_FINDINGS, 'the row with a null response was skipped');
    assert.equal(readJsonl(path.join(dir, 'p.jsonl')).length, 4);
    assert.match(io.err, /rows: warning: 2 row\(s\) have a number or true\/false where text belongs/);
    assert.match(io.err, /keys: warning: 1 row\(s\) repeat the input, prompt, response_a, response_b of an earlier row/);
  });

  const real = sharedData('pandalm');
  const testset = real && ['testset-v1.json', 'testset.json'].map((f) => path.join(real, f)).find((f) => fs.existsSync(f));
  (testset ? it : it.skip)("PandaLM's test set (../shared/data/pandalm): all 999 rows, split 422/472/105 as published", () => {
    const all = importData('pandalm', fs.readFileSync(testset!, 'utf8'), opts);
    assert.equal(all.rows.length, 999);
    const count = (c: string) => all.rows.filter((x) => x['m/human_pairwise_choice'] === c).length;
    assert.deepEqual([count('A'), count('B'), count('TIE')].sort((a, b) => a - b), [105, 422, 472]);
  });
});
