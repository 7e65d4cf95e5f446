import { mulberry32 } from '../../src/core/random';
// Fuzzing the dataset readers: seeded byte-level mutations of the example datasets (JSONL, CSV,
// and a JSON array made from a JSONL example) go through the readers, a dry run of the example
// template and calibrate. No exception may escape except a DatasetError for the file as a whole,
// every record is either read or reported (rows numbered 1..N without gaps), every skip has a
// stable reason and a printable message, and the result does not depend on how bytes are chunked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrate } from '../../src/core/calibration';
import { ByteDecoder, createReader, DatasetError, isSkip, parseDatasetBytes, SKIP_REASONS, type DatasetFormat, type DatasetItem } from '../../src/core/dataset';
import { dryRun } from '../../src/core/judge/reports/dryRun';
import { prepareJudge, type PreparedJudge } from '../../src/core/judge/engine/prepare';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const SEED = 0xda7a;
/** Stops early when the time is used up, so the suite stays bounded on a slow machine. */
const BUDGET_MS = 8000;
const MAX_MUTATIONS = 3000;
const LIMITS = { recordChars: 4096, depth: 32 };

type Rng = () => number;

const int = (rng: Rng, n: number) => Math.floor(rng() * n);

interface Seed {
  name: string;
  format: DatasetFormat;
  bytes: Buffer;
  judge: PreparedJudge | undefined;
  metric: string;
}

const FRAGMENTS: Buffer[] = [
  '\n', '\r\n', '\r', '"', '""', ',', '{', '}', '[', ']', '\\', '\\u', 'null', '{"a":1}', '\u0000', '\u001b[2J', '\u202e',
  '\ufeff', '\u2028', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[', 'é', '😀',
].map((s) => Buffer.from(s))
  .concat([Buffer.from([0xff]), Buffer.from([0xc3]), Buffer.from([0xe2, 0x82]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xfe, 0xff]), Buffer.from([0xff, 0xfe])]);

/** One random byte-level edit: delete, duplicate, insert random bytes or a fragment, truncate, or blow a value up past the record limit. */
function mutate(bytes: Buffer, rng: Rng): Buffer {
  const at = int(rng, bytes.length + 1);
  const len = 1 + int(rng, 40);
  switch (int(rng, 6)) {
    case 0:
      return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + len)]);
    case 1: {
      const to = int(rng, bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, to), bytes.subarray(at, at + len * 4), bytes.subarray(to)]);
    }
    case 2: {
      const noise = Buffer.alloc(1 + int(rng, 8));
      for (let i = 0; i < noise.length; i++) noise[i] = int(rng, 256);
      return Buffer.concat([bytes.subarray(0, at), noise, bytes.subarray(at)]);
    }
    case 3:
      return Buffer.concat([bytes.subarray(0, at), FRAGMENTS[int(rng, FRAGMENTS.length)]!, bytes.subarray(at)]);
    case 4:
      return bytes.subarray(0, at);
    default:
      return Buffer.concat([bytes.subarray(0, at), Buffer.alloc(LIMITS.recordChars + 10, 'x'), bytes.subarray(at)]);
  }
}

function seeds(): Seed[] {
  const out: Seed[] = [];
  for (const name of fs.readdirSync(EXAMPLES).sort()) {
    const format: DatasetFormat | undefined = name.endsWith('.jsonl') ? 'jsonl' : name.endsWith('.csv') ? 'csv' : name.endsWith('.json') ? 'json' : undefined;
    if (!format) continue;
    const bytes = fs.readFileSync(path.join(EXAMPLES, name));
    const base = name.replace(/(\.results)?\.(jsonl|csv|json)$/, '');
    const templateFile = path.join(EXAMPLES, `${base}.judge`);
    const prepared = fs.existsSync(templateFile) ? prepareJudge(fs.readFileSync(templateFile, 'utf8')) : undefined;
    const judge = prepared?.ok ? prepared.judge : undefined;
    out.push({ name, format, bytes, judge, metric: judge?.metric ?? base });
    if (format === 'jsonl') {
      // The examples have no .json array: make one from the same records, one per line.
      const records = bytes.toString('utf8').split('\n').filter((l) => l.trim() !== '');
      out.push({ name: name.replace(/\.jsonl$/, '.json'), format: 'json', bytes: Buffer.from(`[\n${records.join(',\n')}\n]\n`), judge, metric: judge?.metric ?? base });
    }
  }
  return out;
}

/** Items, or the DatasetError for the file as a whole; anything else escaping fails the test. */
function read(bytes: Buffer, format: DatasetFormat, chunk?: number): DatasetItem[] | DatasetError {
  try {
    if (chunk === undefined) return parseDatasetBytes(bytes, format, 'fuzz', LIMITS);
    const decoder = new ByteDecoder(createReader(format, LIMITS), 'fuzz');
    const out: DatasetItem[] = [];
    for (let i = 0; i < bytes.length; i += chunk) out.push(...decoder.push(bytes.subarray(i, i + chunk)));
    return [...out, ...decoder.end()];
  } catch (e) {
    if (e instanceof DatasetError) return e;
    throw e;
  }
}

const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|\p{Cs}/u;

function checkItems(items: DatasetItem[], context: string): void {
  items.forEach((item, i) => {
    assert.equal(item.row, i + 1, `${context}: rows are numbered 1..N in order`);
    assert.ok(Number.isInteger(item.line) && item.line >= 1, `${context}: row ${item.row} has a line`);
    if (isSkip(item)) {
      assert.ok((SKIP_REASONS as readonly string[]).includes(item.reason), `${context}: reason ${item.reason}`);
      assert.ok(item.error.startsWith(`line ${item.line}: `), `${context}: ${item.error}`);
      assert.ok(!UNPRINTABLE.test(item.error.replace(/\u200d/g, '')), `${context}: unprintable message ${JSON.stringify(item.error)}`);
      assert.ok(item.error.length < 1000, `${context}: message too long (${item.error.length})`);
    } else assert.equal(typeof item.record, 'object');
  });
}

async function* stream(items: DatasetItem[]): AsyncIterable<DatasetItem> {
  yield* items;
}

describe('dataset fuzzer', function () {
  this.timeout(BUDGET_MS * 3);

  it(`survives up to ${MAX_MUTATIONS} seeded mutations of the example datasets (seed ${SEED.toString(16)})`, async () => {
    const all = seeds();
    assert.ok(all.some((s) => s.format === 'csv') && all.some((s) => s.format === 'json') && all.some((s) => s.format === 'jsonl'));
    const rng = mulberry32(SEED);
    const started = Date.now();
    let done = 0;
    let refused = 0;
    let skips = 0;
    for (; done < MAX_MUTATIONS && Date.now() - started < BUDGET_MS; done++) {
      const seed = all[done % all.length]!;
      let bytes = seed.bytes;
      for (let k = 1 + int(rng, 4); k > 0; k--) bytes = mutate(bytes, rng);
      const context = `seed ${SEED.toString(16)}, mutation ${done} of ${seed.name}`;
      const whole = read(bytes, seed.format);
      const pieces = read(bytes, seed.format, 1 + int(rng, 97));
      if (whole instanceof DatasetError) {
        refused++;
        assert.ok(pieces instanceof DatasetError && pieces.code === whole.code, `${context}: chunked reading refuses the file the same way`);
        assert.ok(!UNPRINTABLE.test(whole.message), `${context}: printable file error ${JSON.stringify(whole.message)}`);
        continue;
      }
      assert.deepEqual(pieces, whole, `${context}: chunked reading gives the same items`);
      checkItems(whole, context);
      skips += whole.filter(isSkip).length;
      if (seed.judge) {
        const report = await dryRun({ judge: seed.judge, settings: { model: 'm', structured: 'none', schemaName: seed.metric }, items: stream(whole), cacheScope: 'fuzz' });
        assert.equal(report.rows + report.skippedLines, whole.length, `${context}: the dry run reads or reports every record`);
      }
      const outcome = await calibrate(stream(whole), seed.metric);
      if (outcome.ok) assert.equal(outcome.report.n + outcome.report.skipped, whole.length, `${context}: calibrate uses or counts every record`);
    }
    if (process.env.FUZZ_STATS) console.log(`${done} mutations in ${Date.now() - started} ms: ${refused} refused, ${skips} skips`);
    assert.ok(done >= 100, `only ${done} mutations ran in ${BUDGET_MS} ms`);
    assert.ok(skips > 0 && refused > 0, `the mutations reached both skips (${skips}) and refusals (${refused})`);
  });
});
