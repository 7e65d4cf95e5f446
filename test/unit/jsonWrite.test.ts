// JSON written in pieces (for rows with huge fields) is exactly JSON.stringify's text, and the
// hashes, request bodies and results lines made from it are the ones made from the whole text.
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { holdsLargeText, jsonChunks, jsonPieces } from '../../src/core/jsonWrite';
import { canonicalJson, rowKey, sha256Hex } from '../../src/core/results/keys';
import { cacheKey } from '../../src/core/judge/engine/cache';
import { OpenAICompatibleClient } from '../../src/core/judge/transport/openaiClient';
import { ResultsWriter } from '../../src/core/judge/run/writer';
import { mulberry32 } from '../../src/core/random';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';

const MB = 1 << 20;

/** A text longer than the piece size with surrogate pairs, lone surrogates and escapes around the piece boundaries. */
function hostileText(rng: () => number, length: number): string {
  const bits = ['a', 'é', '😀', '\ud83d', '\ude00', '"', '\\', '\n', '\u0001', '\u2028', ' '];
  const out: string[] = [];
  let n = 0;
  while (n < length) {
    const run = rng() < 0.9 ? 'x'.repeat(1 + Math.floor(rng() * 5000)) : bits[Math.floor(rng() * bits.length)]!;
    out.push(run);
    n += run.length;
  }
  return out.join('');
}

describe('JSON written in pieces', () => {
  const rng = mulberry32(0x150);
  const big = hostileText(rng, 2.5 * MB);
  // Pairs at odd offsets: every piece boundary falls inside one.
  const pairs = `x${'😀'.repeat(MB)}`;
  const values: unknown[] = [
    big,
    pairs,
    { prompt: 'p', response: big, n: 1.5, no: undefined, f: () => 1, nested: { list: [big, undefined, () => 2, null, { deep: big }] } },
    [big, { toJSON: () => 'replaced' }, new Date(0)],
    { small: 'only short strings', a: [1, 'two', { three: 3 }] },
  ];

  it('joins to exactly JSON.stringify, for huge and hostile texts', () => {
    for (const v of values) assert.equal([...jsonPieces(v)].join(''), JSON.stringify(v));
  });

  it('gives exactly the bytes of JSON.stringify + suffix, in chunks', () => {
    for (const v of values) {
      const chunks = [...jsonChunks(v, '\n')];
      assert.ok(Buffer.concat(chunks).equals(Buffer.from(`${JSON.stringify(v)}\n`)));
      if (holdsLargeText(v)) assert.ok(chunks.length > 10 && chunks.every((c) => c.length < MB), 'written in small chunks');
    }
  });

  it('hashes a row key and a cache key as from the whole text', () => {
    const record = { prompt: 'p', response: big };
    assert.equal(rowKey(record, ['prompt', 'response']), sha256Hex(canonicalJson({ prompt: 'p', response: big })).slice(0, 16));
    assert.equal(canonicalJson(record), JSON.stringify({ prompt: 'p', response: big }));
    // The cache key's canonical text, as it was built before it was written in pieces.
    const input = { baseURL: 'http://x', model: 'm', temperature: 0, sample: 0, messages: [{ role: 'user' as const, content: big }] };
    const text = `{"baseURL":"http://x","messages":[{"content":${JSON.stringify(big)},"role":"user"}],"model":"m","sample":0,"temperature":0,"v":1}`;
    assert.equal(cacheKey(input), createHash('sha256').update(text).digest('hex'));
  });
});

describe('a row with a huge field on the request path', () => {
  let fake: FakeOpenAI;
  let dir: string;
  before(async () => {
    fake = await FakeOpenAI.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-bigrow-'));
  });
  after(async () => {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the same body with its content-length, not chunked', async () => {
    fake.rules = [() => reply({ score: 3 })];
    const content = hostileText(mulberry32(7), 3 * MB);
    const client = new OpenAICompatibleClient({ baseURL: fake.baseURL, timeoutMs: 30_000 });
    const res = await client.complete({ model: 'm', messages: [{ role: 'user', content }], temperature: 0 });
    assert.equal(res.text, '{"score":3}');
    const sent = fake.chats[0]!;
    assert.equal(sent.body?.messages?.[0]?.content, content);
    assert.equal(sent.headers['transfer-encoding'], undefined);
    assert.equal(Number(sent.headers['content-length']), Buffer.byteLength(JSON.stringify({ ...(sent.body as object) })));
  });

  it('writes a results line that reads back as the line', () => {
    const file = path.join(dir, 'r.jsonl');
    const writer = new ResultsWriter(file, true);
    const line = { _row: 1, response: hostileText(mulberry32(9), 3 * MB), 'm/score': 4 };
    writer.write(line);
    writer.write({ _row: 2, 'm/score': 5 });
    writer.close();
    assert.equal(fs.readFileSync(file, 'utf8'), `${JSON.stringify(line)}\n${JSON.stringify({ _row: 2, 'm/score': 5 })}\n`);
  });

  it('writes it in its turn when buffered, after the lines waiting and before the next', async () => {
    const file = path.join(dir, 'b.jsonl');
    const writer = new ResultsWriter(file, true, { buffered: true, flushMs: 10_000 });
    const big = { _row: 2, response: hostileText(mulberry32(11), 3 * MB), 'm/score': 4 };
    const lines = [{ _row: 1, 'm/score': 3 }, big, { _row: 3, 'm/score': 5 }];
    for (const l of lines) writer.write(l);
    await writer.end();
    assert.equal(writer.written, 3);
    assert.equal(fs.readFileSync(file, 'utf8'), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  });
});
