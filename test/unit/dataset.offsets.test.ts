// The editor's row index for JSONL: reading rows through it gives exactly what reading the whole
// file gives (numbers, lines, skips), however the bytes arrive.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bufferSource, DatasetError, fileSource, indexJsonl, parseDatasetBytes, readIndexedRows } from '../../src/core/dataset';
import { JsonlIndexer } from '../../src/core/dataset/offsets';

const CASES: Buffer[] = [
  Buffer.from('{"a":1}\n{"a":2}\n'),
  Buffer.from('\n{"a":1}\n   \n\t\n{"a":2}\n\n'),
  Buffer.from('{"a":1}\r\n\r\n{"a":2}\r\n{"a":3}'),
  Buffer.from('{"a":1}\r{"a":2}\r\r{"a":3}'),
  Buffer.from('\ufeff{"a":1}\n{"a": }\n[1]\n'),
  Buffer.from('{"a":1}\n\u00a0\u3000\n\ufeff\n{"a":"é"}\n'),
  // NULs in the first 8 KB make the whole file binary, so these come after a long first row.
  Buffer.concat([Buffer.from(`{"pad":"${'p'.repeat(9000)}"}\n{"a":"`), Buffer.from([0xff]), Buffer.from('"}\n{"a":"\u0000"}\n{"b":2}')]),
];

describe('JSONL row index', () => {
  it('reads every row as the whole-file reader does', async () => {
    for (const bytes of CASES) {
      const source = bufferSource(bytes);
      const index = await indexJsonl(source);
      assert.ok(index);
      const whole = parseDatasetBytes(bytes, 'jsonl');
      assert.equal(index.rows, whole.length, JSON.stringify(bytes.toString()));
      assert.deepEqual(await readIndexedRows(source, index, 1, index.rows), whole, JSON.stringify(bytes.toString()));
      // One row on its own too.
      for (const item of whole) assert.deepEqual(await readIndexedRows(source, index, item.row, item.row), [item]);
    }
  });

  it('builds the same index from chunks of any size', async () => {
    for (const bytes of CASES) {
      const whole = new JsonlIndexer();
      whole.push(bytes);
      const expected = whole.end();
      for (const size of [1, 2, 3]) {
        const indexer = new JsonlIndexer();
        for (let i = 0; i < bytes.length; i += size) indexer.push(bytes.subarray(i, i + size));
        const index = indexer.end();
        assert.equal(index.rows, expected.rows);
        for (let r = 1; r <= index.rows; r++) assert.deepEqual(index.range(r), expected.range(r));
      }
    }
  });

  it('clamps a range to the rows there are', async () => {
    const source = bufferSource(CASES[0]!);
    const index = (await indexJsonl(source))!;
    assert.deepEqual((await readIndexedRows(source, index, 0, 99)).map((i) => i.row), [1, 2]);
    assert.deepEqual(await readIndexedRows(source, index, 3, 9), []);
  });

  it('refuses a binary file and leaves UTF-16 to the whole-file reader', async () => {
    await assert.rejects(indexJsonl(bufferSource(Buffer.from([1, 0, 2, 0, 0, 0, 7]))), (e: unknown) => e instanceof DatasetError && e.code === 'binary-file');
    assert.equal(await indexJsonl(bufferSource(Buffer.from('\ufeff{"a":1}\n', 'utf16le'))), undefined);
  });

  it('indexes a 20 MB file on disk and reads its last row without reading the rest', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-studio-offsets-'));
    try {
      const file = path.join(dir, 'big.jsonl');
      const line = (i: number) => `${JSON.stringify({ id: i, text: 'y'.repeat(180) })}\n`;
      const n = 100_000;
      fs.writeFileSync(file, Array.from({ length: n }, (_, i) => line(i + 1)).join(''));
      const source = fileSource(file);
      const started = performance.now();
      const index = (await indexJsonl(source))!;
      const indexMs = performance.now() - started;
      assert.equal(index.rows, n);
      const [last] = await readIndexedRows(source, index, n, n);
      assert.deepEqual(last, { row: n, line: n, record: { id: n, text: 'y'.repeat(180) } });
      assert.ok(indexMs < 5000, `indexing took ${indexMs.toFixed(0)} ms`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
