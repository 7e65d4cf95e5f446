// What a review needs besides the results file: row numbers, the template that judged the file,
// the reviewer's name, without the editor.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { templateHash } from '../../src/core/results';
import { parseTemplate } from '../../src/core/template';
import { defaultAnnotator, numberedByRow, templateByHash, templateHashes } from '../../src/extension/review/setup';

const line = (n: number, record: Record<string, unknown>) => ({ row: n, line: n, record });

describe('review setup', () => {
  it('numbers rows by _row, not by the line they were written on', () => {
    const rows = numberedByRow([line(1, { _row: 2 }), line(2, { _row: 1 }), line(3, { prompt: 'no _row' })]);
    assert.deepEqual(rows.map((r) => [r.row, r.line]), [[2, 1], [1, 2], [3, 3]]);
  });

  it("picks the template whose text the rows' m/template_hash names, and none when the hash decides nothing", () => {
    const a = { template: parseTemplate('---\nname: m\nkind: pointwise\nscale: [1, 5]\n---\nA\n') };
    const b = { template: parseTemplate('---\nname: m\nkind: pointwise\nscale: [1, 5]\n---\nB\n') };
    const hashes = templateHashes([line(1, { 'm/template_hash': templateHash(b.template.text) }), line(2, { 'x/template_hash': 'ffffffffffff' })], 'm');
    assert.equal(templateByHash([a, b], hashes), b);
    assert.equal(templateByHash([a, b], new Set(['000000000000'])), undefined);
    assert.equal(templateByHash([a, b], new Set([templateHash(a.template.text), templateHash(b.template.text)])), undefined);
  });

  it("never runs git in an untrusted folder: the repository's user.name is not read", async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'review-annotator-'));
    try {
      fs.mkdirSync(path.join(dir, '.git'));
      fs.writeFileSync(path.join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
      fs.mkdirSync(path.join(dir, '.git/objects'));
      fs.mkdirSync(path.join(dir, '.git/refs'));
      fs.writeFileSync(path.join(dir, '.git/config'), '[core]\n\trepositoryformatversion = 0\n[user]\n\tname = Repo Config User\n');
      const osUser = os.userInfo().username;
      assert.equal(await defaultAnnotator(dir, false), osUser);
      const trusted = await defaultAnnotator(dir, true);
      // Where git is installed, a trusted folder's own user.name is used.
      assert.ok(trusted === 'Repo Config User' || trusted === osUser, trusted);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
