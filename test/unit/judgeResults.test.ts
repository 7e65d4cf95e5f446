import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cacheKey, canonicalJson, defaultCacheDir, DiskCache } from '../../src/core/judge/engine/cache';
import type { CacheKeyInput } from '../../src/core/judge/engine/cache';
import { scanResults } from '../../src/core/judge/run/scan';
import { ResultsWriter } from '../../src/core/judge/run/writer';
import { readJsonl, tempDir } from '../support/judgeFixtures';

describe('results file', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });

  it('appends whole lines and a resume scan finds their row numbers', async () => {
    const file = path.join(dir, 'r.jsonl');
    const w = new ResultsWriter(file, true);
    w.write({ _row: 2, 'm/score': 1 });
    w.write({ _row: 1, 'm/score': 3 });
    w.close();
    assert.deepEqual(readJsonl(file), [{ _row: 2, 'm/score': 1 }, { _row: 1, 'm/score': 3 }]);
    const scan = await scanResults(file);
    assert.deepEqual([...scan.done].sort(), [1, 2]);
    assert.deepEqual(scan.warnings, []);
  });

  it('adds to an existing file when resuming and empties it for a fresh run', () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, '{"_row":1}\n');
    const resume = new ResultsWriter(file, false);
    resume.write({ _row: 2 });
    resume.close();
    assert.equal(readJsonl(file).length, 2);
    new ResultsWriter(file, true).close();
    assert.equal(fs.readFileSync(file, 'utf8'), '');
  });

  it('cuts off a torn last line so the next append starts on a fresh line', async () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, '{"_row":1,"m/score":2}\n{"_row":2,"m/sc');
    const scan = await scanResults(file);
    assert.deepEqual([...scan.done], [1]);
    assert.match(scan.warnings[0]!, /last line was cut off mid-write.*judged again/);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"_row":1,"m/score":2}\n');
  });

  it('keeps a complete last line that only lacks its newline', async () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, '{"_row":1}\n{"_row":2}');
    const scan = await scanResults(file);
    assert.deepEqual([...scan.done].sort(), [1, 2]);
    assert.equal(fs.readFileSync(file, 'utf8'), '{"_row":1}\n{"_row":2}\n');
  });

  it('ignores lines without a numeric _row, with a warning naming them', async () => {
    const file = path.join(dir, 'r.jsonl');
    fs.writeFileSync(file, '{"_row":1}\nnot json\n{"id":3}\n');
    const scan = await scanResults(file);
    assert.deepEqual([...scan.done], [1]);
    assert.match(scan.warnings[0]!, /2 line\(s\).*line 2, 3/);
  });

  it('treats a missing results file as nothing done yet', async () => {
    const scan = await scanResults(path.join(dir, 'absent.jsonl'));
    assert.equal(scan.done.size, 0);
  });
});

describe('judge cache', () => {
  const base: CacheKeyInput = {
    baseURL: 'http://127.0.0.1:1/v1',
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    temperature: 0,
    sample: 0,
  };

  it('writes canonical JSON with sorted keys and no undefined values', () => {
    assert.equal(canonicalJson({ b: 1, a: { d: undefined, c: [1, 'x'] } }), '{"a":{"c":[1,"x"]},"b":1}');
  });

  it('gives equal requests equal keys whatever the key order', () => {
    assert.equal(cacheKey(base), cacheKey({ sample: 0, temperature: 0, messages: [{ content: 'hi', role: 'user' }], model: 'm', baseURL: base.baseURL }));
  });

  it('changes the key with anything that can change the answer', () => {
    const variants: Partial<CacheKeyInput>[] = [
      { model: 'n' },
      { baseURL: 'http://other/v1' },
      { messages: [{ role: 'user', content: 'hi!' }] },
      { temperature: 0.5 },
      { maxTokens: 10 },
      { sample: 1 },
      { responseFormat: { mode: 'json_object', name: 'q', schema: {} } },
    ];
    const keys = new Set([cacheKey(base), ...variants.map((v) => cacheKey({ ...base, ...v }))]);
    assert.equal(keys.size, variants.length + 1);
  });

  it('stores entries atomically under the cache directory and reads them back', async () => {
    const dir = tempDir();
    const cache = new DiskCache(dir);
    const key = cacheKey(base);
    assert.equal(await cache.get(key), undefined);
    await cache.put(key, { text: '{"score":1}', model: 'm' });
    assert.deepEqual(await cache.get(key), { text: '{"score":1}', model: 'm' });
    const files = fs.readdirSync(path.join(dir, 'v1', key.slice(0, 2)));
    assert.deepEqual(files, [`${key}.json`], 'no temporary file left behind');
  });

  it('treats a damaged entry as a miss', async () => {
    const dir = tempDir();
    const key = cacheKey(base);
    fs.mkdirSync(path.join(dir, 'v1', key.slice(0, 2)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'v1', key.slice(0, 2), `${key}.json`), '{"text":');
    assert.equal(await new DiskCache(dir).get(key), undefined);
  });

  it('lives in JUDGE_STUDIO_CACHE_DIR, else XDG_CACHE_HOME/judge-studio, else ~/.cache/judge-studio', () => {
    assert.equal(defaultCacheDir({ JUDGE_STUDIO_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, '/home/u'), '/c');
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/u'), path.join('/x', 'judge-studio'));
    assert.equal(defaultCacheDir({}, '/home/u'), path.join('/home/u', '.cache', 'judge-studio'));
  });
});
