// Issue #32, items 8 and 9: the smaller holes, each reproduced as described. A run stopped by
// SIGTERM keeps its rows and its lock goes; a full disk at the start is said in words and leaves no
// temporary file; a labels file that is not there is an error; an unreadable import is exit 2 and a
// huge one is refused before it is read; a glob outside a config is never listed; a held-out text
// hidden with soft hyphens or look-alike letters is still found; calibrate names rows by `_row` and
// a bad label by the labels file's line.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HeldOutGuard, type LabelledRow } from '../../src/core/align';
import { importJudgePromptFile } from '../../src/core/import';
import { main } from '../../src/cli/main';
import { EXIT_USAGE } from '../../src/cli/io';
import { FakeOpenAI, reply } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, waitFor, writeJsonl } from '../support/judgeFixtures';
import { CLI, requireBundle, runCli } from '../support/cliProcess';

const cli = async (dir: string, args: string[]) => {
  const io = captureIO(dir, { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache') });
  return { code: await main(args, io), out: io.out, err: io.err };
};

describe('the smaller holes of issue 32 stay closed', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
    fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
  });

  it('stops on SIGTERM as on Ctrl-C: the rows already judged are written and the lock is released', async () => {
    requireBundle();
    // Five rows are answered at once; the sixth request hangs until the run stops it.
    const fake = await FakeOpenAI.start({ rules: [(r) => (r.index < 5 ? reply({ justification: 'fine', score: 4 }) : { ...reply({ justification: 'late', score: 1 }), delayMs: 60_000 })] });
    try {
      writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: 10 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}` })));
      const out = path.join(dir, 'r.jsonl');
      const done = runCli(['run', 'q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--model', 'm', '--out', out, '--concurrency', '1', '--no-cache'], {
        cwd: dir,
        deadlineMs: 40_000,
        onSpawn: (child) => void waitFor(() => fake.chats.length >= 6, 20_000, 'the sixth request').then(() => child.kill('SIGTERM')),
      });
      const r = await done;
      assert.equal(r.killed, false, r.stderr);
      assert.match(r.stderr, /SIGTERM: stopping after the requests in flight/);
      assert.equal(r.code, 1, r.stderr);
      assert.deepEqual(readJsonl(out).map((l) => l._row).sort(), [1, 2, 3, 4, 5], 'the five judged rows are in the file');
      assert.equal(fs.existsSync(`${out}.lock`), false, 'the lock is released');
      assert.match(r.stderr, /5 row\(s\) written; to finish, run judge-studio run/);
    } finally {
      await fake.close();
    }
  });

  it('says in words that the disk is full at the start, and leaves no temporary lock file', function () {
    requireBundle();
    const full = path.join(dir, 'full');
    fs.mkdirSync(full);
    writeJsonl(path.join(dir, 'd.jsonl'), [{ prompt: 'q', response: 'r' }]);
    // A tiny tmpfs filled to the brim, in a mount namespace of our own (no root needed where user namespaces are allowed).
    const script = `mount -t tmpfs -o size=64k tmpfs "${full}" && (dd if=/dev/zero of="${full}/fill" bs=1k count=100 2>/dev/null; true) && "${process.execPath}" "${CLI}" run q.judge --data d.jsonl --base-url http://127.0.0.1:9/v1 --model m --out "${full}/r.jsonl"; echo "exit=$?"; ls -a "${full}"`;
    const r = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'sh', '-c', script], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
    if (r.error || /unshare: |mount: /.test(r.stderr)) this.skip(); // no mount namespace here: a full disk cannot be made
    assert.match(r.stderr, /cannot create the lock .*r\.jsonl\.lock beside .*r\.jsonl: the disk is full \(ENOSPC\); nothing was written/);
    assert.doesNotMatch(r.stderr, /^judge-studio run: ENOSPC/m);
    assert.match(r.stdout, /exit=2/);
    assert.deepEqual(r.stdout.split('\n').filter((l) => l && !l.startsWith('exit=')).sort(), ['.', '..', 'fill']);
  });

  it('refuses a --labels file that does not exist, in calibrate and align (exit 2)', async () => {
    writeJsonl(path.join(dir, 'r.jsonl'), [{ prompt: 'q', response: 'r', _row: 1, _key: '0123456789abcdef', 'quality/score': 3, 'quality/human_rating': 3 }]);
    const calibrate = await cli(dir, ['calibrate', 'r.jsonl', '--metric', 'quality', '--labels', 'missing.labels.jsonl']);
    assert.equal(calibrate.code, EXIT_USAGE);
    assert.match(calibrate.err, /--labels missing\.labels\.jsonl: no such file/);
    const align = await cli(dir, ['align', 'q.judge', '--data', 'r.jsonl', '--labels', 'missing.labels.jsonl', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm']);
    assert.equal(align.code, EXIT_USAGE);
    assert.match(align.err, /--labels missing\.labels\.jsonl: no such file/);
  });

  it('exits 2 on a truncated import-data file and writes nothing', async () => {
    fs.writeFileSync(path.join(dir, 'llmbar.json'), '[{"input": "Which is better?", "output_1": "a", "output_2": "b", "label": 1}, {"input": "Cut');
    const r = await cli(dir, ['import-data', 'llmbar', 'llmbar.json', '--out', 'out.jsonl', '--metric', 'pref']);
    assert.equal(r.code, EXIT_USAGE, r.err);
    assert.match(r.err, /llmbar\.json: not JSON .*; nothing was written/);
    assert.equal(fs.existsSync(path.join(dir, 'out.jsonl')), false);
  });

  it('refuses a 100 MB promptfoo config before reading it', async () => {
    const config = path.join(dir, 'promptfooconfig.yaml');
    fs.writeFileSync(config, 'tests:\n');
    fs.truncateSync(config, 100 * 1024 * 1024); // sparse: its size without its bytes
    const r = await cli(dir, ['import', 'promptfoo', 'promptfooconfig.yaml', '--out', 'judges']);
    assert.equal(r.code, EXIT_USAGE, r.err);
    assert.match(r.err, /promptfooconfig\.yaml is 104,857,600 bytes, more than the 20,971,520 an import reads/);
  });

  it('never lists a folder outside the config for a file:// glob', async () => {
    const config = path.join(dir, 'promptfooconfig.yaml');
    fs.writeFileSync(config, 'tests: file:///etc/*\n');
    const r = await importJudgePromptFile('promptfoo', config);
    const said = r.problems.map((p) => p.message).join('\n');
    assert.match(said, /file:\/\/\/etc\/\*: \/etc is outside the config's folder, so it is not listed/);
    for (const name of fs.readdirSync('/etc').filter((n) => n.length > 3).slice(0, 20)) assert.ok(!said.includes(`/etc/${name}`), `it names /etc/${name}`);
  });

  it("finds a held-out text in a candidate that hides it with soft hyphens, zero-width spaces or look-alike letters", () => {
    const row = (i: number, prompt: string): LabelledRow => ({ row: i, line: i, key: `${i}`.padStart(16, '0'), record: { prompt, response: 'x' }, label: 1 });
    const guard = new HeldOutGuard([row(1, 'The migratory patterns of the arctic tern span both polar regions')], [row(2, 'Unrelated training text')], ['prompt']);
    const hidden = [
      'Example: The migra\u00ADtory pat\u00ADterns of the arc\u00ADtic tern span both polar regions.',
      'Example: The migratory\u200B patterns of the arctic\u200B tern span both polar regions.',
      'Example: Th\u0435 migr\u0430tory p\u0430tterns \u043Ef the \u0430rctic tern sp\u0430n both polar regions.',
    ];
    for (const text of hidden) assert.equal(guard.quote(text)?.field, 'prompt', JSON.stringify(text));
  });

  it('names a calibrate row by its _row, and a bad label from --labels F by F and its line', async () => {
    // Results lines in completion order: the seventh line is _row 14.
    const lines = Array.from({ length: 8 }, (_, i) => ({ prompt: `q${i}`, response: `r${i}`, _row: [1, 3, 2, 8, 5, 6, 14, 4][i], _key: `${i}`.repeat(16).slice(0, 16), 'quality/score': 3, 'quality/human_rating': i === 6 ? 'three' : 3 }));
    writeJsonl(path.join(dir, 'r.jsonl'), lines);
    const notes = await cli(dir, ['calibrate', 'r.jsonl', '--metric', 'quality']);
    assert.match(notes.err, /r\.jsonl: row 14 \(line 7\): "quality\/human_rating" is "three"/);
    writeJsonl(path.join(dir, 'r.jsonl'), lines.map((l) => ({ ...l, 'quality/human_rating': 3 })));
    // The labels file gives _row 14 a 9 on a 1–5 scale, on its line 2.
    fs.writeFileSync(
      path.join(dir, 'r.labels.jsonl'),
      [
        { _key: lines[0]!._key, metric: 'quality', label: 3, annotator: 'ann', time: 't' },
        { _key: lines[6]!._key, metric: 'quality', label: 9, annotator: 'ann', time: 't' },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n',
    );
    const refused = await cli(dir, ['calibrate', 'r.jsonl', '--metric', 'quality', '--labels', 'r.labels.jsonl', '--template', 'q.judge']);
    assert.equal(refused.code, EXIT_USAGE, refused.err);
    assert.match(refused.err, /^judge-studio calibrate: r\.labels\.jsonl: line 2 \(the label of row 14\): .*9/m);
  });
});
