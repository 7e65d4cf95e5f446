// Issue #23: verdict patterns that froze the CLI (V8's backtracking on 29- and 36-character replies)
// run as the real CLI process against the fake server, each within the test's deadline: the
// unreadable replies become row errors after one repair request, a matching reply is scored, and
// a pattern the linear-time engine cannot run is refused before any request.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FakeOpenAI } from '../support/fakeOpenAI';
import { readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';
import { requireBundle, runCli } from '../support/cliProcess';

const FREEZING = ['(a|a)+(?<score>\\d)X', '(a|aa)+(?<score>\\d)X', '([a-z]|a)+(?<score>\\d)X', '(a|a?)+(?<score>\\d)X', '^(a|a)*(?<score>\\d)X'];

function template(pattern: string): string {
  return `---
name: freeze
kind: pointwise
scale: [1, 9]
freeform: true
verdict: {format: regex, pattern: '${pattern}'}
inputs: [answer]
---
Judge this answer:
{{answer}}
End with the score.
`;
}

/** The reply for a row: a run of a's that no pattern matches (29 or 36 characters), or one that matches. */
const REPLIES: Record<string, string> = { r29: `${'a'.repeat(28)}5`, r36: `${'a'.repeat(35)}5`, ok: `${'a'.repeat(20)}4X` };

describe('verdict patterns from a template never block the CLI (bundled CLI process)', function () {
  this.timeout(120_000);
  let fake: FakeOpenAI;
  let dir: string;
  let data: string;

  before(requireBundle);
  beforeEach(async () => {
    fake = await FakeOpenAI.start({
      rules: [(r) => ({ reply: REPLIES[Object.keys(REPLIES).find((k) => r.prompt.includes(`<<${k}>>`)) ?? 'ok']! })],
    });
    dir = tempDir();
    data = writeJsonl(path.join(dir, 'd.jsonl'), Object.keys(REPLIES).map((k) => ({ answer: `<<${k}>>` })));
  });
  afterEach(() => fake.close());

  for (const pattern of FREEZING) {
    it(`judges every row with /${pattern}/: the a-runs fail as invalid-reply, the matching reply scores 4`, async () => {
      const file = path.join(dir, 'freeze.judge');
      fs.writeFileSync(file, template(pattern));
      const out = path.join(dir, `${FREEZING.indexOf(pattern)}.jsonl`);
      const args = ['run', file, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--no-cache'];
      const r = await runCli(args, { deadlineMs: 20_000 });
      assert.equal(r.killed, false, `the CLI was still running after 20 s:\n${r.stderr}`);
      assert.equal(r.code, 1, r.stderr);
      const byAnswer = Object.fromEntries(readJsonl(out).map((l) => [String(l.answer), l]));
      for (const k of ['r29', 'r36']) {
        assert.equal(byAnswer[`<<${k}>>`]?.['freeze/error_kind'], 'invalid-reply', k);
        assert.match(String(byAnswer[`<<${k}>>`]?.['freeze/error']), /no match for the verdict pattern/);
      }
      assert.equal(byAnswer['<<ok>>']?.['freeze/score'], 4);
    });
  }

  it('refuses a pattern with a backreference as verdict-pattern-unsupported before any request', async () => {
    const file = path.join(dir, 'back.judge');
    fs.writeFileSync(file, template('(?<score>\\d)\\1X'));
    const r = await runCli(['run', file, '--data', data, '--base-url', fake.baseURL, '--model', 'm', '--out', path.join(dir, 'b.jsonl')], { deadlineMs: 20_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /verdict-pattern-unsupported/);
    assert.match(r.stderr, /backreference/);
    assert.equal(fake.chats.length, 0);
  });

  it('validate reports the same code with the line of the pattern', async () => {
    const file = path.join(dir, 'look.judge');
    fs.writeFileSync(file, template('(?<=Score: )(?<score>\\d)'));
    const r = await runCli(['validate', file, '--json'], { deadlineMs: 20_000 });
    assert.equal(r.code, 1, r.stderr);
    const found = (JSON.parse(r.stdout) as { code: string; line: number }[]).find((d) => d.code === 'verdict-pattern-unsupported');
    assert.equal(found?.line, 6);
  });
});
