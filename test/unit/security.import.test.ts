// Issue #23: `import --force` never follows a link inside --out nor writes outside it, a
// 300-character prompt name becomes a short file name with a hash suffix, and a problem with any
// template writes none of them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { fileName, metricName, writeTemplates } from '../../src/core/import/write';
import { captureIO, tempDir } from '../support/judgeFixtures';

const PROMPT = (name: string) =>
  JSON.stringify({ name, type: 'single', prompt_template: 'Rate the answer.\n[Question]\n{question}\n[Answer]\n{answer}\nEnd with "Rating: [[n]]".', output_format: '[[rating]]' });

describe('import writes inside --out only, all templates or none', () => {
  let dir: string;
  const cli = async (args: string[]) => {
    const io = captureIO(dir);
    return { code: await main(args, io), io };
  };
  const source = (names: string[]) => {
    const file = path.join(dir, 'prompts.jsonl');
    fs.writeFileSync(file, names.map(PROMPT).join('\n') + '\n');
    return file;
  };

  beforeEach(() => {
    dir = tempDir();
  });

  it('refuses --force through a symlink inside --out, leaves its target and writes no other template', async () => {
    const outside = path.join(dir, 'outside.txt');
    fs.writeFileSync(outside, 'precious\n');
    fs.mkdirSync(path.join(dir, 'judges'));
    fs.symlinkSync(outside, path.join(dir, 'judges', 'b-judge.judge'));
    const r = await cli(['import', 'fastchat', source(['a-judge', 'b-judge']), '--out', 'judges', '--force']);
    assert.equal(r.code, EXIT_USAGE, r.io.err);
    assert.match(r.io.err, /b-judge\.judge is a symbolic link; import never writes through a link/);
    assert.equal(fs.readFileSync(outside, 'utf8'), 'precious\n');
    assert.deepEqual(fs.readdirSync(path.join(dir, 'judges')), ['b-judge.judge'], 'a-judge was not written either, and no temporary folder is left');
  });

  it('shortens a 300-character prompt name with a hash suffix and writes every template', async () => {
    const long = `judge-${'x'.repeat(294)}`;
    const long2 = `judge-${'x'.repeat(293)}y`;
    const r = await cli(['import', 'fastchat', source(['short', long, long2]), '--out', 'judges', '--json']);
    assert.equal(r.code, EXIT_OK, r.io.err);
    const files = fs.readdirSync(path.join(dir, 'judges')).sort();
    assert.equal(files.length, 3);
    for (const f of files) assert.ok(Buffer.byteLength(f) <= 110, f);
    const longFiles = files.filter((f) => f.startsWith('judge-x'));
    assert.equal(longFiles.length, 2);
    assert.notEqual(longFiles[0], longFiles[1], 'two long names stay distinct');
    for (const f of longFiles) assert.match(f, /^judge-x+-[0-9a-f]{8}\.judge$/);
    const text = fs.readFileSync(path.join(dir, 'judges', longFiles[0]!), 'utf8');
    assert.match(text, /^name: judge_x+_[0-9a-f]{8}$/m);
    const v = await cli(['validate', path.join('judges', longFiles[0]!)]);
    assert.equal(v.code, EXIT_OK, v.io.err + v.io.out);
  });

  it('names stay within their limits and keep their rules', () => {
    assert.equal(fileName('a/b\\..\\c'), 'a-b-..-c.judge');
    assert.ok(fileName('y'.repeat(300)).length <= 106);
    assert.match(metricName('Z'.repeat(300)), /^[a-z][a-z0-9_]{0,63}$/);
    assert.equal(metricName('short-name'), 'short_name');
  });

  it('refuses a name that is a path, and leaves the folder as it was', async () => {
    const out = path.join(dir, 'judges');
    const bad = await writeTemplates(out, [{ file: 'ok.judge', text: 'x' }, { file: '../escape.judge', text: 'y' }], { force: true });
    assert.ok(!bad.ok && /not a plain file name/.test(bad.message));
    assert.deepEqual(fs.readdirSync(out), []);
    assert.equal(fs.existsSync(path.join(dir, 'escape.judge')), false);
  });

  it('replaces an existing file with --force and keeps it without, never touching what a link points at', async () => {
    const out = path.join(dir, 'judges');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'a.judge'), 'old');
    assert.deepEqual(await writeTemplates(out, [{ file: 'a.judge', text: 'new' }], { force: false }), { ok: true, status: ['exists'] });
    assert.equal(fs.readFileSync(path.join(out, 'a.judge'), 'utf8'), 'old');
    assert.deepEqual(await writeTemplates(out, [{ file: 'a.judge', text: 'new' }], { force: true }), { ok: true, status: ['written'] });
    assert.equal(fs.readFileSync(path.join(out, 'a.judge'), 'utf8'), 'new');
    fs.symlinkSync(path.join(dir, 'nowhere.txt'), path.join(out, 'dangling.judge'));
    const r = await writeTemplates(out, [{ file: 'dangling.judge', text: 'z' }], { force: false });
    assert.ok(!r.ok);
    assert.equal(fs.existsSync(path.join(dir, 'nowhere.txt')), false);
  });
});
