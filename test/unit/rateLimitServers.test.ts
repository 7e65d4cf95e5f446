// The limiter against real HTTP servers with each kind of request-rate limit, whatever their
// headers mean: OpenAI's continuous refill, a rolling window whose reset is when its oldest call
// leaves, a fixed clock-second window, and no headers at all. Every row is judged, none fails for
// 429s, and the share of requests refused stays small (bounded loosely: CI machines are slow).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_OK } from '../../src/cli/io';
import { FakeOpenAI, type RateLimitOptions } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

const ROWS = 160;
const PER_SECOND = 40;

const SERVERS: { kind: string; limit: RateLimitOptions }[] = [
  { kind: "a bucket refilled continuously with OpenAI's x-ratelimit headers", limit: { perSecond: PER_SECOND, model: 'bucket' } },
  { kind: 'a rolling window whose reset header is when the oldest call leaves it', limit: { perSecond: PER_SECOND, model: 'window' } },
  { kind: 'a fixed clock-second window whose reset header is when the second ends', limit: { perSecond: PER_SECOND, model: 'fixed' } },
  { kind: 'a fixed clock-second window that sends no rate-limit headers', limit: { perSecond: PER_SECOND, model: 'fixed', headers: false } },
];

describe('rate-limited servers of every kind', function () {
  this.timeout(60_000);
  let fake: FakeOpenAI | undefined;
  afterEach(async () => fake?.close());

  for (const { kind, limit } of SERVERS) {
    it(`judges every row against ${kind}, none failed for 429s, few requests refused`, async () => {
      fake = await FakeOpenAI.start({ rateLimit: limit, record: false });
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
      writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: ROWS }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
      const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
      const code = await runCommand(['q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--out', 'r.jsonl', '--concurrency', '16', '--no-cache'], io);
      assert.equal(code, EXIT_OK, io.err);
      const lines = readJsonl(path.join(dir, 'r.jsonl'));
      assert.equal(lines.length, ROWS, 'every row judged');
      assert.deepEqual(lines.filter((l) => 'quality/error' in l).map((l) => l['quality/error_kind']), [], 'no row failed');
      const refused = fake.rateLimit?.refused ?? 0;
      const share = refused / (refused + ROWS);
      // Before the limiter learned from 429s, the two windows with headers refused over half the requests.
      assert.ok(share < 0.25, `${refused} of ${refused + ROWS} requests refused`);
    });
  }
});
