import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  DatasetError,
  createReader,
  describeSkips,
  formatOf,
  isSkip,
  parseDataset,
  readDataset,
  readDatasetFile,
  type DatasetFormat,
  type DatasetItem,
  type DatasetSkip,
} from '../../src/core/dataset';

/** Compact view of items: [row, line, record] for rows, [row, line, 'skip'] for skips. */
function brief(items: DatasetItem[]): [number, number, unknown][] {
  return items.map((i) => [i.row, i.line, isSkip(i) ? 'skip' : i.record]);
}

function skipOf(items: DatasetItem[], row: number): DatasetSkip {
  const item = items.find((i) => i.row === row);
  assert.ok(item && isSkip(item), `row ${row} should be a skip`);
  return item;
}

async function collect(iterable: AsyncIterable<DatasetItem>): Promise<DatasetItem[]> {
  const out: DatasetItem[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

let tmp = '';

function tempFile(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, text);
  return file;
}

// Every edge case below, gathered so the streaming and chunked readers can be checked against them.
const FIXTURES: { name: string; format: DatasetFormat; text: string }[] = [
  { name: 'plain.jsonl', format: 'jsonl', text: '{"a":1}\n{"a":2}\n' },
  { name: 'blank-lines.jsonl', format: 'jsonl', text: '\n{"a":1}\n   \n\t\n{"a":2}\n\n' },
  { name: 'malformed.jsonl', format: 'jsonl', text: '{"a":1}\n{"a": }\n\n{"a":3}\n' },
  { name: 'non-object.jsonl', format: 'jsonl', text: '[1,2]\n{"a":2}\n42\n"s"\nnull\n{"a":6}' },
  { name: 'crlf.jsonl', format: 'jsonl', text: '{"a":1}\r\n\r\n{"a":2}\r\n' },
  { name: 'cr.jsonl', format: 'jsonl', text: '{"a":1}\r{"a":2}\r\r{"a":3}' },
  { name: 'bom.jsonl', format: 'jsonl', text: '\uFEFF{"a":1}\n' },
  { name: 'plain.csv', format: 'csv', text: 'prompt,score\nhi,5\nbye,\n' },
  { name: 'quoted-comma.csv', format: 'csv', text: 'a,b\n"x, y",2\n' },
  { name: 'doubled-quotes.csv', format: 'csv', text: 'a,b\n"say ""hi""",""\n' },
  { name: 'quoted-newline.csv', format: 'csv', text: 'a,b\n"one\ntwo\nthree",1\nz,2\n' },
  { name: 'crlf.csv', format: 'csv', text: 'a,b\r\n"x\r\ny",1\r\nz,2\r\n' },
  { name: 'bom.csv', format: 'csv', text: '\uFEFFa,b\n1,2\n' },
  { name: 'blank.csv', format: 'csv', text: 'a,b\n\n1,2\n  \n3,4\n\n' },
  { name: 'field-count.csv', format: 'csv', text: 'a,b\n1,2\n1,2,3\n4\n5,6\n' },
  { name: 'unterminated.csv', format: 'csv', text: 'a,b\n1,2\n"open,3\n4,5\n' },
  { name: 'after-quote.csv', format: 'csv', text: 'a,b\n"x"y,1\n2,3\n' },
  { name: 'header-only.csv', format: 'csv', text: 'a,b\n' },
  { name: 'empty.csv', format: 'csv', text: '' },
  {
    name: 'array.json',
    format: 'json',
    text: '[\n  {"a": 1},\n  {"a": "\\"],{"},\n\n  {\n    "a": 3\n  }\n]\n',
  },
  { name: 'non-object.json', format: 'json', text: '[{"a":1},\n2,\n[3],\n{"a":4}]' },
  { name: 'bom.json', format: 'json', text: '\uFEFF[{"a":1}]' },
];

function fixture(name: string): { format: DatasetFormat; text: string } {
  const f = FIXTURES.find((x) => x.name === name);
  assert.ok(f, `no fixture ${name}`);
  return f;
}

function parseFixture(name: string): DatasetItem[] {
  const f = fixture(name);
  return parseDataset(f.text, f.format);
}

describe('formatOf', () => {
  it('maps .jsonl, .ndjson, .json and .csv to their formats, ignoring case', () => {
    assert.equal(formatOf('a/b.jsonl'), 'jsonl');
    assert.equal(formatOf('b.NDJSON'), 'jsonl');
    assert.equal(formatOf('c.json'), 'json');
    assert.equal(formatOf('d.Csv'), 'csv');
  });

  it('rejects other extensions with a message naming the file and the supported ones', () => {
    assert.throws(() => formatOf('data/rows.txt'), /data\/rows\.txt.*\.jsonl, \.ndjson, \.json, \.csv/);
    assert.throws(() => formatOf('noextension'), /noextension/);
  });
});

describe('JSONL datasets', () => {
  it('numbers rows from 1 with the line each one is on', () => {
    assert.deepEqual(brief(parseFixture('plain.jsonl')), [
      [1, 1, { a: 1 }],
      [2, 2, { a: 2 }],
    ]);
  });

  it('does not count blank or whitespace-only lines as rows but keeps their line numbers', () => {
    assert.deepEqual(brief(parseFixture('blank-lines.jsonl')), [
      [1, 2, { a: 1 }],
      [2, 5, { a: 2 }],
    ]);
  });

  it('skips a malformed line in the middle and keeps the numbering of later rows', () => {
    const items = parseFixture('malformed.jsonl');
    assert.deepEqual(brief(items), [
      [1, 1, { a: 1 }],
      [2, 2, 'skip'],
      [3, 4, { a: 3 }],
    ]);
    assert.match(skipOf(items, 2).error, /^line 2: invalid JSON .*; the row is skipped$/);
  });

  it('gives the column of a JSON syntax error when the parser reports one', () => {
    const [item] = parseDataset('{"a":1,}', 'jsonl');
    assert.ok(item && isSkip(item));
    assert.match(item.error, /^line 1: invalid JSON at column 8 \(/);
  });

  it('skips lines that are valid JSON but not an object, naming what was found', () => {
    const items = parseFixture('non-object.jsonl');
    assert.deepEqual(brief(items), [
      [1, 1, 'skip'],
      [2, 2, { a: 2 }],
      [3, 3, 'skip'],
      [4, 4, 'skip'],
      [5, 5, 'skip'],
      [6, 6, { a: 6 }],
    ]);
    assert.match(skipOf(items, 1).error, /^line 1: expected a JSON object .* but found an array; the row is skipped$/);
    assert.match(skipOf(items, 3).error, /found a number/);
    assert.match(skipOf(items, 4).error, /found a string/);
    assert.match(skipOf(items, 5).error, /found null/);
  });

  it('reads CRLF line endings', () => {
    assert.deepEqual(brief(parseFixture('crlf.jsonl')), [
      [1, 1, { a: 1 }],
      [2, 3, { a: 2 }],
    ]);
  });

  it('treats a lone CR as a line break, as the editor does', () => {
    assert.deepEqual(brief(parseFixture('cr.jsonl')), [
      [1, 1, { a: 1 }],
      [2, 2, { a: 2 }],
      [3, 4, { a: 3 }],
    ]);
  });

  it('drops a byte order mark before the first line', () => {
    assert.deepEqual(brief(parseFixture('bom.jsonl')), [[1, 1, { a: 1 }]]);
  });
});

describe('CSV datasets', () => {
  it('keys each record by the header and keeps every value a string', () => {
    assert.deepEqual(brief(parseFixture('plain.csv')), [
      [1, 2, { prompt: 'hi', score: '5' }],
      [2, 3, { prompt: 'bye', score: '' }],
    ]);
  });

  it('keeps commas inside quoted values', () => {
    assert.deepEqual(brief(parseFixture('quoted-comma.csv')), [[1, 2, { a: 'x, y', b: '2' }]]);
  });

  it('turns doubled quotes inside a quoted value into one quote', () => {
    assert.deepEqual(brief(parseFixture('doubled-quotes.csv')), [[1, 2, { a: 'say "hi"', b: '' }]]);
  });

  it('keeps line breaks inside quoted values and numbers the record by the line it starts on', () => {
    assert.deepEqual(brief(parseFixture('quoted-newline.csv')), [
      [1, 2, { a: 'one\ntwo\nthree', b: '1' }],
      [2, 5, { a: 'z', b: '2' }],
    ]);
  });

  it('reads CRLF line endings and keeps a quoted CRLF verbatim', () => {
    assert.deepEqual(brief(parseFixture('crlf.csv')), [
      [1, 2, { a: 'x\r\ny', b: '1' }],
      [2, 4, { a: 'z', b: '2' }],
    ]);
  });

  it('drops a byte order mark so the first column keeps its plain name', () => {
    assert.deepEqual(brief(parseFixture('bom.csv')), [[1, 2, { a: '1', b: '2' }]]);
  });

  it('does not count blank lines as records', () => {
    assert.deepEqual(brief(parseFixture('blank.csv')), [
      [1, 3, { a: '1', b: '2' }],
      [2, 5, { a: '3', b: '4' }],
    ]);
  });

  it('skips a record with the wrong number of fields and keeps the numbering of later rows', () => {
    const items = parseFixture('field-count.csv');
    assert.deepEqual(brief(items), [
      [1, 2, { a: '1', b: '2' }],
      [2, 3, 'skip'],
      [3, 4, 'skip'],
      [4, 5, { a: '5', b: '6' }],
    ]);
    assert.match(skipOf(items, 2).error, /^line 3: expected 2 fields \(a, b\) but found 3 \(quote .*\); the row is skipped$/);
    assert.match(skipOf(items, 3).error, /^line 4: expected 2 fields \(a, b\) but found 1 /);
  });

  it('skips the last record when a quote is never closed before the end of the file', () => {
    const items = parseFixture('unterminated.csv');
    assert.deepEqual(brief(items), [
      [1, 2, { a: '1', b: '2' }],
      [2, 3, 'skip'],
    ]);
    assert.match(skipOf(items, 2).error, /^line 3: .*field 1, opened on line 3, is never closed.*; the row is skipped$/);
  });

  it('skips a record with text after a closing quote', () => {
    const items = parseFixture('after-quote.csv');
    assert.deepEqual(brief(items), [
      [1, 2, 'skip'],
      [2, 3, { a: '2', b: '3' }],
    ]);
    assert.match(skipOf(items, 1).error, /^line 2: unexpected text after the closing quote of field 1/);
  });

  it('keeps a quote inside an unquoted value as text and an empty last field after a trailing comma', () => {
    assert.deepEqual(brief(parseDataset('a,b\n5" disk,\n', 'csv')), [[1, 2, { a: '5" disk', b: '' }]]);
  });

  it('reads a quoted empty value on its own line as a record, not a blank line', () => {
    assert.deepEqual(brief(parseDataset('a\n""\n\nx\n', 'csv')), [
      [1, 2, { a: '' }],
      [2, 4, { a: 'x' }],
    ]);
  });

  it('trims spaces around header names', () => {
    assert.deepEqual(brief(parseDataset('a , b\n1, 2\n', 'csv')), [[1, 2, { a: '1', b: ' 2' }]]);
  });

  it('rejects a header that names a column twice', () => {
    assert.throws(
      () => parseDataset('a,b,a\n1,2,3\n', 'csv'),
      (e: unknown) =>
        e instanceof DatasetError &&
        e.line === 1 &&
        /column "a" twice \(columns 1 and 3\); rename one/.test(e.message),
    );
  });

  it('rejects a header with an unclosed quote', () => {
    assert.throws(() => parseDataset('"a,b\n1,2\n', 'csv'), /header row is malformed.*never closed/);
  });

  it('reads a header-only or empty file as zero rows', () => {
    assert.deepEqual(parseFixture('header-only.csv'), []);
    assert.deepEqual(parseFixture('empty.csv'), []);
    assert.deepEqual(parseDataset('a,b', 'csv'), []);
  });
});

describe('JSON array datasets', () => {
  it('numbers elements from 1 with the line each one starts on', () => {
    assert.deepEqual(brief(parseFixture('array.json')), [
      [1, 2, { a: 1 }],
      [2, 3, { a: '"],{' }],
      [3, 5, { a: 3 }],
    ]);
  });

  it('skips elements that are not objects and keeps the numbering of later ones', () => {
    const items = parseFixture('non-object.json');
    assert.deepEqual(brief(items), [
      [1, 1, { a: 1 }],
      [2, 2, 'skip'],
      [3, 3, 'skip'],
      [4, 4, { a: 4 }],
    ]);
    assert.match(skipOf(items, 2).error, /^line 2: element 2 of the array is a number, not an object; the row is skipped$/);
  });

  it('rejects a file that holds something other than an array', () => {
    assert.throws(
      () => parseDataset('{"a": 1}', 'json'),
      (e: unknown) => e instanceof DatasetError && /expected a JSON array of objects .* holds an object/.test(e.message),
    );
  });

  it('rejects invalid JSON with the line and column of the error', () => {
    assert.throws(
      () => parseDataset('[\n  {"a": 1},\n  {"a" 2}\n]', 'json'),
      (e: unknown) => e instanceof DatasetError && e.line === 3 && /^line 3, column 8: invalid JSON/.test(e.message),
    );
  });

  it('drops a byte order mark and reads an empty file or empty array as zero rows', () => {
    assert.deepEqual(brief(parseFixture('bom.json')), [[1, 1, { a: 1 }]]);
    assert.deepEqual(parseDataset('', 'json'), []);
    assert.deepEqual(parseDataset('[ ]', 'json'), []);
  });
});

describe('chunked reading', () => {
  for (const size of [1, 2, 3]) {
    it(`gives the same items as whole-text parsing when fed ${size}-character chunks`, () => {
      for (const f of FIXTURES) {
        const reader = createReader(f.format);
        const items: DatasetItem[] = [];
        for (let i = 0; i < f.text.length; i += size) items.push(...reader.push(f.text.slice(i, i + size)));
        items.push(...reader.end());
        assert.deepEqual(items, parseDataset(f.text, f.format), f.name);
      }
    });
  }
});

describe('readDataset', () => {
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-dataset-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('streams the same items as parseDataset for every fixture', async () => {
    for (const f of FIXTURES) {
      const file = tempFile(f.name, f.text);
      assert.deepEqual(await collect(readDataset(file)), parseDataset(f.text, f.format), f.name);
    }
  });

  it('streams a 100,000-line JSONL file and yields every row in order', async () => {
    const n = 100_000;
    const lines: string[] = [];
    for (let i = 1; i <= n; i++) lines.push(JSON.stringify({ id: i, prompt: `question ${i}`, response: 'x'.repeat(40) }));
    const file = tempFile('large.jsonl', lines.join('\n') + '\n');
    let count = 0;
    for await (const item of readDataset(file)) {
      count++;
      assert.ok(!isSkip(item));
      assert.equal(item.row, count);
      assert.equal(item.line, count);
      assert.equal(item.record.id, count);
    }
    assert.equal(count, n);
  });

  it('splits rows from skips in readDatasetFile', async () => {
    const { rows, skipped } = await readDatasetFile(tempFile('split.jsonl', fixture('malformed.jsonl').text));
    assert.deepEqual(rows.map((r) => r.row), [1, 3]);
    assert.deepEqual(skipped.map((s) => [s.row, s.line]), [[2, 2]]);
  });

  it('names the file when the whole file is unreadable', async () => {
    const file = tempFile('object.json', '{"a": 1}');
    await assert.rejects(collect(readDataset(file)), (e: unknown) => {
      return e instanceof DatasetError && e.message.startsWith(`${file}: expected a JSON array`);
    });
    const csv = tempFile('dup.csv', 'a,a\n1,2\n');
    await assert.rejects(collect(readDataset(csv)), new RegExp(`^DatasetError: ${escape(csv)}: line 1: `));
  });

  it('names the file when it does not exist', async () => {
    const missing = path.join(tmp, 'missing.jsonl');
    await assert.rejects(collect(readDataset(missing)), new RegExp(`cannot read dataset ${escape(missing)}: ENOENT`));
  });

  it('rejects an unsupported extension before opening the file', async () => {
    await assert.rejects(collect(readDataset(path.join(tmp, 'rows.tsv'))), /unsupported dataset file type/);
  });

  it('stops with an AbortError when the signal is aborted before or during reading', async () => {
    const file = tempFile('abort.jsonl', '{"a":1}\n{"a":2}\n{"a":3}\n');
    const before = new AbortController();
    before.abort();
    await assert.rejects(collect(readDataset(file, { signal: before.signal })), { name: 'AbortError' });

    const during = new AbortController();
    const seen: number[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of readDataset(file, { signal: during.signal })) {
          seen.push(item.row);
          during.abort();
        }
      })(),
      { name: 'AbortError' },
    );
    assert.deepEqual(seen, [1]);
  });
});

describe('describeSkips', () => {
  it('says nothing when no row was skipped', () => {
    assert.equal(describeSkips([], 'data.jsonl'), '');
  });

  it('names the file, the count, and each skipped row with its line and reason', () => {
    const skipped = parseFixture('malformed.jsonl').filter(isSkip);
    const text = describeSkips(skipped, 'data.jsonl');
    assert.match(text, /^data\.jsonl: skipped 1 malformed row \(1 invalid-json\) and read the rest\. row 2 \(line 2\): invalid JSON/);
    assert.doesNotMatch(text, /the row is skipped/);
    assert.doesNotMatch(text, /\n/);
  });

  it('lists the first five skipped rows and counts the rest', () => {
    const text = 'a,b\n' + Array.from({ length: 8 }, (_, i) => `${i},${i},${i}`).join('\n');
    const skipped = parseDataset(text, 'csv').filter(isSkip);
    const summary = describeSkips(skipped, 'wide.csv');
    assert.match(summary, /^wide\.csv: skipped 8 malformed rows/);
    assert.match(summary, /row 5 \(line 6\): expected 2 fields/);
    assert.doesNotMatch(summary, /row 6 \(/);
    assert.match(summary, /; and 3 more\./);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
