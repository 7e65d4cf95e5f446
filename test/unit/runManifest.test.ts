// The run manifest and the interruption hint: the hint, copied as printed, continues the same run
// against the same endpoint (a server the shell's environment points at receives nothing); the
// manifest fills in the template, the data and the flags, never a key, and never chooses where the
// data and the key go.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runCommand } from '../../src/cli/commands/run';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../../src/cli/io';
import { FakeOpenAI, status } from '../support/fakeOpenAI';
import { captureIO, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

/** The command of a hint, split as a POSIX shell would (the hint quotes with single quotes only). */
function hintCommand(stderr: string): string[] {
  const m = /; (?:[^;]*?)run (judge-studio run .*) to judge the rest$/m.exec(stderr);
  assert.ok(m, `no hint in:\n${stderr}`);
  const words: string[] = [];
  for (const w of m[1]!.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(w[1] !== undefined ? w[1].replace(/'\\''/g, "'") : w[2]!);
  return words;
}

describe('run manifest and resume hints', function () {
  this.timeout(30_000);
  let fake: FakeOpenAI;
  let capture: FakeOpenAI;
  let dir: string;
  beforeEach(async () => {
    fake = await FakeOpenAI.start();
    capture = await FakeOpenAI.start();
    dir = tempDir();
    fs.mkdirSync(path.join(dir, 'results'));
    fs.writeFileSync(path.join(dir, 'q.judge'), POINTWISE);
    writeJsonl(path.join(dir, 'd.jsonl'), Array.from({ length: 10 }, (_, i) => ({ prompt: 'p', response: `r${i + 1}` })));
  });
  afterEach(async () => {
    await fake.close();
    await capture.close();
  });

  // The shell the user copies the hint into points at another server by default.
  const env = () => ({ JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_OUTAGE_BASE_MS: '50', OPENAI_BASE_URL: capture.baseURL, OPENAI_API_KEY: 'sk-test-secret-0123456789' });
  const interrupted = async () => {
    let answered = 0;
    fake.rules = [() => (answered >= 4 ? status(503, 'down') : (answered++, undefined))];
    const io = captureIO(dir, env());
    const code = await runCommand(
      ['q.judge', '--data', 'd.jsonl', '--base-url', fake.baseURL, '--allow-insecure-http', '--model', 'm', '--concurrency', '1', '--retries', '1', '--samples', '1', '--max-outage', '300ms', '--header', 'X-Team: hunter2', '--out', 'results/r.jsonl'],
      io,
    );
    assert.equal(code, EXIT_FINDINGS, io.err);
    fake.rules = [];
    return io;
  };

  it('prints a hint that, copied as printed, finishes the run at the same endpoint', async () => {
    const io = await interrupted();
    const words = hintCommand(io.err);
    assert.deepEqual(words.slice(0, 5), ['judge-studio', 'run', 'q.judge', '--data', 'd.jsonl']);
    assert.ok(words.includes('--base-url') && words[words.indexOf('--base-url') + 1] === fake.baseURL, words.join(' '));
    assert.match(io.err, /add your --header flags again \(x-team\): header values are never stored/);
    const before = fake.chats.length;
    const resumed = captureIO(dir, env());
    const code = await runCommand([...words.slice(2), '--header', 'X-Team: hunter2'], resumed);
    assert.equal(code, EXIT_OK, resumed.err);
    assert.equal(capture.requests.length, 0, 'the server of the environment received nothing');
    assert.equal(fake.chats.length - before, 6, 'the six missing rows went to the run\'s endpoint');
    assert.deepEqual(readJsonl(path.join(dir, 'results', 'r.jsonl')).map((l) => l._row).sort((a, b) => Number(a) - Number(b)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // --retries and --samples decide how many requests are sent: the hint repeats them, the manifest never supplies them alone.
    assert.ok(words.join(' ').includes('--samples 1 --retries 1') || words.join(' ').includes('--retries 1 --samples 1'), words.join(' '));
    assert.match(resumed.err, /resuming the run recorded in results\/r\.jsonl\.run\.json: q\.judge on d\.jsonl with --model m --concurrency 1 --max-outage 300ms/);
  });

  it('refuses a resume that would send the data elsewhere, showing what the manifest says but no command to copy', async () => {
    await interrupted();
    const io = captureIO(dir, env());
    await assert.rejects(runCommand(['--resume', '--out', 'results/r.jsonl', '--retries', '1', '--samples', '1'], io), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, new RegExp(`base URL ${fake.baseURL.replace(/[./]/g, '\\$&')} in the manifest, ${capture.baseURL.replace(/[./]/g, '\\$&')} now`));
      assert.match(e.message, /a manifest is a file anyone can edit: to continue the same run, give the endpoint flags you judged it with yourself/);
      assert.doesNotMatch(e.message, /judge-studio run/);
      return true;
    });
    assert.equal(capture.requests.length, 0);
  });

  it('never stores a key or a header value beside the results', async () => {
    await interrupted();
    const written = fs.readdirSync(path.join(dir, 'results')).map((f) => fs.readFileSync(path.join(dir, 'results', f), 'utf8')).join('\n');
    assert.match(written, /"baseURL"/, 'the manifest is there');
    assert.doesNotMatch(written, /sk-test-secret|hunter2/);
  });

  it('resumes from the manifest with only --out and the endpoint, or with the template only', async () => {
    // The results folder holds the data and the template: the hint needs neither.
    fs.copyFileSync(path.join(dir, 'q.judge'), path.join(dir, 'results', 'q.judge'));
    fs.copyFileSync(path.join(dir, 'd.jsonl'), path.join(dir, 'results', 'd.jsonl'));
    fake.rules = [(r) => (r.prompt.includes('Response: r9') ? status(400, 'bad') : undefined)];
    const first = captureIO(dir, env());
    const args = ['--base-url', fake.baseURL, '--allow-insecure-http', '--model', 'm', '--out', 'results/q.results.jsonl'];
    assert.equal(await runCommand(['results/q.judge', '--data', 'results/d.jsonl', ...args], first), EXIT_FINDINGS);
    fake.rules = [];
    const again = captureIO(dir, env());
    assert.equal(await runCommand(['--resume', ...args.filter((a) => a !== '--model' && a !== 'm')], again), EXIT_OK, again.err);
    assert.match(again.err, /1 row\(s\) that had failed before were judged again/);
    const third = captureIO(path.join(dir, 'results'), env());
    // `run T --resume` with the default --out of its metric finds the manifest of quality.results.jsonl.
    fs.renameSync(path.join(dir, 'results', 'q.results.jsonl'), path.join(dir, 'results', 'quality.results.jsonl'));
    fs.renameSync(path.join(dir, 'results', 'q.results.jsonl.run.json'), path.join(dir, 'results', 'quality.results.jsonl.run.json'));
    assert.equal(await runCommand(['q.judge', '--resume', '--base-url', fake.baseURL, '--allow-insecure-http'], third), EXIT_OK, third.err);
    assert.equal(capture.requests.length, 0);
  });

  it('refuses a manifest that names files outside the working and results folders', async () => {
    const out = path.join(dir, 'results', 'r.jsonl');
    fs.writeFileSync(out, '');
    fs.writeFileSync(`${out}.run.json`, JSON.stringify({ v: 1, template: 'q.judge', data: '../../../etc/passwd.json', model: 'm', baseURL: fake.baseURL, endpoint: {}, flags: {}, templateHash: 'x', started: 'now' }));
    const io = captureIO(path.join(dir, 'results'), env());
    await assert.rejects(runCommand(['--resume', '--out', 'r.jsonl', '--base-url', fake.baseURL], io), /names a dataset outside this folder and the results folder \(\.\.\/\.\.\/\.\.\/etc\/passwd\.json\); pass it again \(--data\)/);
    assert.equal(fake.requests.length + capture.requests.length, 0);
  });

  it('says what to do when there is no manifest to resume from', async () => {
    const io = captureIO(dir, env());
    await assert.rejects(runCommand(['--resume', '--out', 'results/none.jsonl'], io), /has no run manifest beside it .*pass the template and --data/);
    // Without a manifest (a file from an older version), --resume takes its flags from the command line.
    assert.equal(await runCommand(['q.judge', '--resume', '--data', 'd.jsonl', '--out', 'results/x.jsonl', '--base-url', fake.baseURL, '--model', 'm'], captureIO(dir, env())), EXIT_OK);
  });
});
