// Hostile datasets: every bad record is a skip with a stable reason and an exact, printable
// message; a file that is not text, or not UTF-8/UTF-16, is refused before any row is read.
import * as assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  ByteDecoder,
  checkDatasetFile,
  countSkips,
  createReader,
  DatasetError,
  describeSkips,
  isSkip,
  parseDataset,
  parseDatasetBytes,
  readDataset,
  type DatasetFormat,
  type DatasetItem,
} from '../../src/core/dataset';

const brief = (items: DatasetItem[]) => items.map((i) => (isSkip(i) ? [i.row, i.line, i.reason, i.error] : [i.row, i.line, i.record]));

const deepArray = (n: number) => '['.repeat(n) + ']'.repeat(n);

/** Feeds bytes in `size`-byte chunks, so every split of a character and a CRLF is tried. */
function chunked(bytes: Buffer, format: DatasetFormat, size: number): DatasetItem[] {
  const decoder = new ByteDecoder(createReader(format));
  const out: DatasetItem[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(...decoder.push(bytes.subarray(i, i + size)));
  return [...out, ...decoder.end()];
}

async function collect(file: string): Promise<DatasetItem[]> {
  const out: DatasetItem[] = [];
  for await (const item of readDataset(file)) out.push(item);
  return out;
}

const BAD_UTF8 = Buffer.concat([Buffer.from('{"a":1}\r\n{"a":"caf'), Buffer.from([0xe9]), Buffer.from('"}\r\n{"a":"é€😀"}\n')]);
const INVALID_UTF8 =
  'line 2: the line is not valid UTF-8; save the file as UTF-8 (if it is Windows-1252: iconv -f WINDOWS-1252 -t UTF-8 in > out); the row is skipped';

describe('hostile records are skipped with a reason', () => {
  it('skips a 100,000-deep nested array as too-deep and reads the next row', () => {
    const items = parseDataset(`{"a":${deepArray(100_000)}}\n${deepArray(100_000)}\n{"b":1}\n`, 'jsonl');
    assert.deepEqual(brief(items), [
      [1, 1, 'too-deep', 'line 1: arrays and objects nest more than 256 levels deep (the limit for one record); the row is skipped'],
      [2, 2, 'not-an-object', 'line 2: expected a JSON object such as {"prompt": "..."} but found an array; the row is skipped'],
      [3, 3, { b: 1 }],
    ]);
  });

  it('reads a record nested exactly to the limit', () => {
    const items = parseDataset(`{"a":${deepArray(255)}}`, 'jsonl');
    assert.equal(items.length, 1);
    assert.ok(!isSkip(items[0]!));
  });

  it('skips a too-deep element of a JSON array', () => {
    const items = parseDataset(`[{"a":${deepArray(5000)}},\n{"b":2}]`, 'json');
    assert.deepEqual(brief(items), [
      [1, 1, 'too-deep', 'line 1: arrays and objects nest more than 256 levels deep (the limit for one record); the row is skipped'],
      [2, 2, { b: 2 }],
    ]);
  });

  it('skips a line with a NUL character, in JSONL and in CSV', () => {
    assert.deepEqual(brief(parseDataset('{"a":"x\u0000y"}\n{"a":2}', 'jsonl')), [
      [1, 1, 'nul-byte', 'line 1: the record holds a NUL character (\\0), which a text dataset never contains; remove it; the row is skipped'],
      [2, 2, { a: 2 }],
    ]);
    assert.deepEqual(brief(parseDataset('a,b\nx\u0000,1\ny,2\n', 'csv')), [
      [1, 2, 'nul-byte', 'line 2: the record holds a NUL character (\\0), which a text dataset never contains; remove it; the row is skipped'],
      [2, 3, { a: 'y', b: '2' }],
    ]);
  });

  it('skips a line that is not valid UTF-8 and keeps the lines around it, however the bytes are split', () => {
    const expected = [
      [1, 1, { a: 1 }],
      [2, 2, 'invalid-utf8', INVALID_UTF8],
      [3, 3, { a: 'é€😀' }],
    ];
    assert.deepEqual(brief(parseDatasetBytes(BAD_UTF8, 'jsonl')), expected);
    for (const size of [1, 2, 3, 5]) assert.deepEqual(brief(chunked(BAD_UTF8, 'jsonl', size)), expected, `${size}-byte chunks`);
  });

  it('skips a CSV record with invalid UTF-8 on any of its lines, and a JSON array element', () => {
    const csv = Buffer.concat([Buffer.from('a,b\n"one\nt'), Buffer.from([0xff]), Buffer.from('o",1\nz,2\n')]);
    assert.deepEqual(
      brief(parseDatasetBytes(csv, 'csv')).map((r) => r.slice(0, 3)),
      [
        [1, 2, 'invalid-utf8'],
        [2, 4, { a: 'z', b: '2' }],
      ],
    );
    const json = Buffer.concat([Buffer.from('[{"a":1},\n{"a":"'), Buffer.from([0xc3]), Buffer.from('"}]')]);
    assert.deepEqual(
      brief(parseDatasetBytes(json, 'json')).map((r) => r.slice(0, 3)),
      [
        [1, 1, { a: 1 }],
        [2, 2, 'invalid-utf8'],
      ],
    );
  });

  it('flags a multi-byte character cut off by the end of the file', () => {
    const cut = Buffer.concat([Buffer.from('{"a":1}\n{"a":"'), Buffer.from([0xe2, 0x82])]);
    assert.deepEqual(brief(parseDatasetBytes(cut, 'jsonl')).map((r) => r.slice(0, 3)), [[1, 1, { a: 1 }], [2, 2, 'invalid-utf8']]);
  });

  it('skips an unterminated quote at the end of a CSV with the line it opened on', () => {
    assert.deepEqual(brief(parseDataset('a,b\n1,2\n3,"open\n4,5\n', 'csv')), [
      [1, 2, { a: '1', b: '2' }],
      [
        2,
        3,
        'unterminated-quote',
        'line 3: the quoted value of field 2, opened on line 3, is never closed before the end of the file (add the closing "); the row is skipped',
      ],
    ]);
  });

  it('skips a line longer than the limit, naming the limit, and reads the next one', () => {
    const long = `{"a":"${'x'.repeat(100)}"}`;
    const expected = [
      [1, 1, 'line-too-long', 'line 1: the record is longer than 64 characters, the limit for one record; split the text or shorten it; the row is skipped'],
      [2, 2, { b: 1 }],
    ];
    assert.deepEqual(brief(parseDataset(`${long}\n{"b":1}`, 'jsonl', { recordChars: 64 })), expected);
    // Fed in small chunks the reader never holds more than the limit.
    const reader = createReader('jsonl', { recordChars: 64 });
    const items: DatasetItem[] = [];
    for (const c of `${long}\r\n{"b":1}`.match(/.{1,7}/gs) ?? []) items.push(...reader.push(c));
    assert.deepEqual(brief([...items, ...reader.end()]), expected);
    assert.deepEqual(
      brief(parseDataset(`a\n"${'y'.repeat(100)}"\nz\n`, 'csv', { recordChars: 64 })).map((r) => r.slice(0, 3)),
      [
        [1, 2, 'line-too-long'],
        [2, 3, { a: 'z' }],
      ],
    );
  });

  it('states the default limit as 64 Mi characters', () => {
    const [item] = parseDataset('x'.repeat(64 * 1024 * 1024 + 1), 'jsonl');
    assert.ok(item && isSkip(item));
    assert.equal(item.error, 'line 1: the record is longer than 67,108,864 characters (64 Mi), the limit for one record; split the text or shorten it; the row is skipped');
  });

  it('escapes control characters and cuts long input quoted in a message', () => {
    const [item] = parseDataset(`\u001b[2J\u0007${'z'.repeat(5000)}`, 'jsonl');
    assert.ok(item && isSkip(item));
    assert.equal(item.reason, 'invalid-json');
    assert.doesNotMatch(item.error, /[\u0000-\u001f\u007f]/);
    assert.match(item.error, /^line 1: invalid JSON \(Unexpected token '\\x1b', "\\x1b\[2J\\x07z+"\.\.\. is not valid JSON\); the row is skipped$/);
    const csv = parseDataset('a\u202e,b\n1\n', 'csv');
    assert.equal(csv[0] && isSkip(csv[0]) && csv[0].error, 'line 2: expected 2 fields (a\\u202e, b) but found 1 (quote values that contain commas or line breaks); the row is skipped');
  });

  it('counts skips by reason for a run summary', () => {
    const items = parseDataset(`{"a":${deepArray(300)}}\n1\n{\n{"a":"\u0000"}\n{}`, 'jsonl').filter(isSkip);
    const counts = countSkips(items);
    assert.equal(counts['too-deep'], 1);
    assert.equal(counts['not-an-object'], 1);
    assert.equal(counts['invalid-json'], 1);
    assert.equal(counts['nul-byte'], 1);
    assert.equal(counts['invalid-utf8'], 0);
    assert.match(describeSkips(items, 'd.jsonl'), /^d\.jsonl: skipped 4 malformed rows \(1 invalid-json, 1 not-an-object, 1 too-deep, 1 nul-byte\) and read the rest\./);
  });
});

describe('files that are not UTF-8 text are refused up front', () => {
  let tmp = '';
  before(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-hostile-'))));
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const file = (name: string, bytes: Buffer | string) => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, bytes);
    return p;
  };

  it('refuses random bytes as binary-file before yielding any row, and checkDatasetFile says the same', async () => {
    const p = file('random.jsonl', Buffer.concat([Buffer.from('{"a":1}\n'), randomBytes(64 * 1024)]));
    const message = `${p}: not a text file: it holds NUL bytes in its first 8,192 bytes; a dataset is UTF-8 text (JSON Lines, a JSON array of objects, or CSV with a header row)`;
    const seen: DatasetItem[] = [];
    await assert.rejects(
      (async () => {
        for await (const item of readDataset(p)) seen.push(item);
      })(),
      (e: unknown) => e instanceof DatasetError && e.code === 'binary-file' && e.message === message,
    );
    assert.deepEqual(seen, []);
    assert.deepEqual(await checkDatasetFile(p), { ok: false, code: 'binary-file', message });
  });

  it('refuses a file of control characters without NULs as binary-file', async () => {
    const bytes = Buffer.alloc(4000, 0x01);
    const check = await checkDatasetFile(file('ctrl.csv', bytes));
    assert.equal(check.ok, false);
    assert.match(!check.ok ? check.message : '', /: not a text file: 4,000 of its first 4,000 bytes are control characters;/);
  });

  it('decodes UTF-16 LE and BE with a byte order mark', async () => {
    const text = '\ufeff{"a":"é😀"}\r\n{"a":2}\n';
    const le = file('le.jsonl', Buffer.from(text, 'utf16le'));
    const be = file('be.jsonl', Buffer.from(text, 'utf16le').swap16());
    for (const p of [le, be]) {
      assert.deepEqual(brief(await collect(p)), [
        [1, 1, { a: 'é😀' }],
        [2, 2, { a: 2 }],
      ]);
      assert.deepEqual(await checkDatasetFile(p), { ok: true });
    }
  });

  it('refuses UTF-16 without a byte order mark and UTF-32, naming the encoding and the conversion', async () => {
    const noBom = file('nobom.jsonl', Buffer.from('{"a":1}\n{"a":2}\n', 'utf16le'));
    assert.deepEqual(await checkDatasetFile(noBom), {
      ok: false,
      code: 'unsupported-encoding',
      message: `${noBom}: the file is encoded as UTF-16LE (no byte order mark, a zero byte after every character), not UTF-8; convert it first, for example: iconv -f UTF-16LE -t UTF-8 nobom.jsonl > nobom.utf8.jsonl`,
    });
    await assert.rejects(collect(noBom), (e: unknown) => e instanceof DatasetError && e.code === 'unsupported-encoding');
    const utf32 = file('u32.csv', Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]));
    const check = await checkDatasetFile(utf32);
    assert.equal(!check.ok && check.message, `${utf32}: the file is encoded as UTF-32LE (byte order mark FF FE 00 00), not UTF-8; convert it first, for example: iconv -f UTF-32LE -t UTF-8 u32.csv > u32.utf8.csv`);
  });

  it('reads UTF-8 with and without a byte order mark', async () => {
    for (const [name, bytes] of [
      ['bom.csv', Buffer.from('\ufeffa,b\n1,2\n')],
      ['plain.csv', Buffer.from('a,b\n1,2\n')],
    ] as const) {
      assert.deepEqual(brief(await collect(file(name, bytes))), [[1, 2, { a: '1', b: '2' }]]);
    }
  });

  it('reports a missing file and an unsupported extension with their codes', async () => {
    const missing = path.join(tmp, 'nope.jsonl');
    const a = await checkDatasetFile(missing);
    assert.equal(!a.ok && a.code, 'file-unreadable');
    assert.match(!a.ok ? a.message : '', /^cannot read dataset .*nope\.jsonl: ENOENT/);
    const b = await checkDatasetFile(path.join(tmp, 'rows.tsv'));
    assert.equal(!b.ok && b.code, 'unsupported-format');
  });

  it('refuses a .json file too large to read whole, before parsing it', () => {
    const reader = createReader('json', { fileChars: 10 } as never);
    assert.throws(() => reader.push('[{"a": 12345678}]'), (e: unknown) => e instanceof DatasetError && e.code === 'file-too-large' && /write it as JSON Lines/.test(e.message));
  });
});
