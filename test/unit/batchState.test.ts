// A batch state and a provider's output are checked, not trusted: a state pointing at another
// job's batch, an edited template snapshot or metric, a conflicting duplicate result and results
// for requests never sent are refused or reported, never attached to rows.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { batchCommand } from '../../src/cli/commands/batch';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE } from '../../src/cli/io';
import { FakeBatchServer } from '../support/fakeBatchServer';
import { reply } from '../support/fakeOpenAI';
import { batchPanelSpec } from '../../src/core/batch/job';
import { acquireResultsLock } from '../../src/core/judge/run/lock';
import { prepareJudge } from '../../src/core/judge/engine/prepare';
import { captureIO, panelTemplate, POINTWISE, readJsonl, tempDir, writeJsonl } from '../support/judgeFixtures';

describe('batch collect checks its state and the provider', function () {
  this.timeout(30_000);
  let fake: FakeBatchServer;
  let dir: string;
  let env: Record<string, string>;

  beforeEach(async () => {
    fake = await FakeBatchServer.start();
    dir = tempDir();
    // status and collect name the endpoint the state was submitted to: a state never chooses it.
    env = { JUDGE_STUDIO_CACHE_DIR: path.join(dir, 'cache'), JUDGE_STUDIO_BASE_URL: fake.baseURL };
  });
  afterEach(() => fake.close());

  async function batch(...args: string[]) {
    const io = captureIO(dir, env);
    const code = await batchCommand(args, io);
    return { code, out: io.out, err: io.err };
  }
  async function job(name: string, records: Record<string, unknown>[]): Promise<{ state: string; data: string }> {
    const tpl = path.join(dir, `${name}.judge`);
    fs.writeFileSync(tpl, POINTWISE);
    const data = writeJsonl(path.join(dir, `${name}.jsonl`), records);
    const state = path.join(dir, `${name}.state.json`);
    const r = await batch('submit', tpl, '--data', data, '--state', state, '--base-url', fake.baseURL, '--model', 'm');
    assert.equal(r.code, EXIT_OK, r.err);
    for (let i = 0; i < 10 && !JSON.parse((await batch('status', '--state', state, '--json')).out).done; i++);
    return { state, data };
  }
  const rows = (tag: string) => Array.from({ length: 5 }, (_, i) => ({ prompt: `${tag} question ${i}`, response: `${tag} answer ${i}` }));
  const edit = (file: string, f: (s: Record<string, any>) => void) => {
    const s = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, any>;
    f(s);
    fs.writeFileSync(file, JSON.stringify(s));
  };

  it("refuses a state whose batch id points at another job's batch of the same size, and writes nothing", async () => {
    const a = await job('a', rows('a'));
    const b = await job('b', rows('b'));
    const theirs = (JSON.parse(fs.readFileSync(b.state, 'utf8')) as { batches: { id: string }[] }).batches[0]!.id;
    edit(a.state, (s) => {
      s.batches[0].id = theirs;
      delete s.batches[0].status;
      delete s.batches[0].outputFileId;
    });
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out);
    assert.equal(r.code, EXIT_USAGE, r.err);
    assert.match(r.err, /points at another job's batch/);
    assert.equal(fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '', '');
  });

  /** Two jobs of one template: a's rows are scored 4, b's 2, so a verdict of b's on a's rows shows. */
  async function twoJobs(): Promise<{ a: { state: string; data: string }; b: { state: string; data: string }; theirs: Record<string, any> }> {
    fake.rules = [(r) => reply({ justification: 'fine', score: /Prompt: b /.test(r.prompt) ? 2 : 4 })];
    const a = await job('a', rows('a'));
    const b = await job('b', rows('b'));
    const theirs = (JSON.parse(fs.readFileSync(b.state, 'utf8')) as { batches: Record<string, any>[] }).batches[0]!;
    return { a, b, theirs: { ...theirs, outputFileId: fake.batches.get(theirs.id)!.json.output_file_id } };
  }

  it("after one collect, a state whose outputFileId is another job's still collects only its own verdicts: file ids come from the provider", async () => {
    const { a, theirs } = await twoJobs();
    assert.equal((await batch('collect', '--state', a.state, '--out', path.join(dir, 'first.jsonl'))).code, EXIT_OK);
    edit(a.state, (s) => {
      s.batches[0].outputFileId = theirs.outputFileId;
      s.batches[0].collected = false;
    });
    const out = path.join(dir, 'again.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out);
    assert.equal(r.code, EXIT_OK, r.err);
    assert.deepEqual(readJsonl(out).map((l) => l['quality/score']), [4, 4, 4, 4, 4]);
    assert.equal((JSON.parse(fs.readFileSync(a.state, 'utf8')) as { batches: Record<string, unknown>[] }).batches[0]!.outputFileId, undefined, 'the state keeps no file id to be swapped');
  });

  it("before the first collect, a state whose batch, input and output ids are another job's is refused by the batch's nonce, and writes nothing", async () => {
    const { a, theirs } = await twoJobs();
    edit(a.state, (s) => Object.assign(s.batches[0], { id: theirs.id, fileId: theirs.fileId, outputFileId: theirs.outputFileId }));
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out);
    assert.equal(r.code, EXIT_USAGE, r.err);
    assert.match(r.err, /has judge_studio_nonce = [0-9a-f]{24}, but this state expects [0-9a-f]{24}: the state points at another job's batch/);
    assert.equal(fs.existsSync(out) ? fs.readFileSync(out, 'utf8') : '', '');
  });

  it("a state forged whole from another job's (its nonce too) attaches none of that job's verdicts: each line names the hash of its own request", async () => {
    const { a, b, theirs } = await twoJobs();
    const nonce = (JSON.parse(fs.readFileSync(b.state, 'utf8')) as { nonce: string }).nonce;
    edit(a.state, (s) => {
      s.nonce = nonce;
      Object.assign(s.batches[0], { id: theirs.id, fileId: theirs.fileId });
    });
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out, '--no-repair');
    assert.equal(r.code, EXIT_FINDINGS, r.err);
    const lines = readJsonl(out);
    assert.equal(lines.length, 5);
    for (const l of lines) {
      assert.equal(l['quality/score'], null, 'no verdict of the other job');
      assert.equal(l['quality/error_kind'], 'server');
      assert.match(String(l['quality/error']), /answers another request than this row's \(request hash [0-9a-f]{16}, not [0-9a-f]{16}\)/);
    }
  });

  it('fails the rows of a batch whose output file the provider cannot give (404), without an internal error, and a later collect writes them', async () => {
    const a = await job('a', rows('a'));
    const id = (JSON.parse(fs.readFileSync(a.state, 'utf8')) as { batches: { id: string }[] }).batches[0]!.id;
    const output = String(fake.batches.get(id)!.json.output_file_id);
    fake.unavailable.add(output);
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out);
    assert.equal(r.code, EXIT_FINDINGS, r.err);
    assert.doesNotMatch(r.err, /internal error|\n\s+at /);
    const lines = readJsonl(out);
    assert.deepEqual(lines.map((l) => l['quality/error_kind']), ['server', 'server', 'server', 'server', 'server']);
    assert.match(String(lines[0]!['quality/error']), new RegExp(`the output file ${output} of batch ${id} could not be read \\(404 No such File object\\); collect again later`));
    fake.unavailable.delete(output);
    assert.equal((await batch('collect', '--state', a.state, '--out', out)).code, EXIT_OK);
    assert.deepEqual(readJsonl(out).slice(5).map((l) => typeof l['quality/score']), ['number', 'number', 'number', 'number', 'number']);
  });

  it('fails a row whose line in the batch output is longer than --max-reply-bytes allows, reading no more of it', async () => {
    fake.rules = [(r) => (/question 3/.test(r.prompt) ? { hugeReply: 300_000 } : reply({ justification: 'fine', score: 4 }))];
    const a = await job('a', rows('a'));
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out, '--max-reply-bytes', '50000', '--no-repair');
    assert.equal(r.code, EXIT_FINDINGS, r.err);
    const lines = readJsonl(out).sort((x, y) => Number(x._row) - Number(y._row));
    assert.deepEqual(lines.map((l) => l['quality/error_kind'] ?? 'ok'), ['ok', 'ok', 'ok', 'reply-too-large', 'ok']);
    assert.match(String(lines[3]!['quality/error']), /the batch's line for this request is [\d,]+ bytes, more than the 165,536 read \(--max-reply-bytes\)/);
  });

  it('refuses to collect a state of an earlier version, whose request ids carry no nonce or hash', async () => {
    const a = await job('a', rows('a'));
    edit(a.state, (s) => {
      s.version = 2;
      s.requestMap = 'r<row>[.j<judge>].s<sample>.<order>[.repair]';
      delete s.nonce;
    });
    const r = await batch('collect', '--state', a.state, '--out', path.join(dir, 'r.jsonl'));
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /submitted by an earlier version of Judge Studio, whose request ids carry no nonce or request hash/);
  });

  it('refuses a state whose input file is not the one the batch runs', async () => {
    const a = await job('a', rows('a'));
    edit(a.state, (s) => (s.batches[0].fileId = 'file-999'));
    const r = await batch('collect', '--state', a.state, '--out', path.join(dir, 'r.jsonl'));
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /runs the input file file-\d+, but this state uploaded file-999/);
  });

  it('refuses a template snapshot edited after submit', async () => {
    const a = await job('a', rows('a'));
    edit(a.state, (s) => (s.template.text = String(s.template.text).replace('Fully right.', 'Anything goes.')));
    const r = await batch('collect', '--state', a.state, '--out', path.join(dir, 'r.jsonl'));
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /the state was edited after submit/);
  });

  it('refuses a metric that is not its template\'s, so the default results file cannot leave the folder', async () => {
    const a = await job('a', rows('a'));
    edit(a.state, (s) => (s.metric = '../../escaped'));
    const r = await batch('collect', '--state', a.state);
    assert.equal(r.code, EXIT_USAGE);
    assert.match(r.err, /names the metric "\.\.\/\.\.\/escaped", but its template is metric "quality"/);
    assert.equal(fs.existsSync(path.join(dir, '..', '..', 'escaped.results.jsonl')), false);
  });

  it('makes a conflicting duplicate result an error for its row, keeps an identical duplicate, and reports ids never sent', async () => {
    fake.rules = [(r) => reply({ justification: 'fine', score: /question 2/.test(r.prompt) ? 2 : 4 })];
    fake.tamperOutput = (lines) => {
      const find = (n: number) => lines.find((l) => (JSON.parse(l) as { custom_id: string }).custom_id.startsWith(`r${n}.s0.AB.`))!;
      const conflicting = find(4).replace(/\\"score\\":4/, '\\"score\\":1');
      const stranger = find(1).replace('"r1.s0.AB.', '"r77.s0.AB.');
      return [...lines, find(2), conflicting, stranger];
    };
    const a = await job('a', rows('a'));
    const out = path.join(dir, 'r.jsonl');
    const r = await batch('collect', '--state', a.state, '--out', out);
    assert.equal(r.code, EXIT_FINDINGS, r.err);
    const lines = readJsonl(out).sort((x, y) => Number(x._row) - Number(y._row));
    assert.deepEqual(lines.map((l) => l['quality/score']), [4, 4, 2, null, 4], "row 4 fails on its conflicting duplicate; row 2 keeps its identical one");
    assert.equal(lines[3]!['quality/error_kind'], 'server');
    assert.match(String(lines[3]!['quality/error']), /two different results for request r4\.s0\.AB\.[0-9a-f]{24}\.[0-9a-f]{16}/);
    assert.match(r.err, /1 result\(s\) in the batch output for requests never sent \(first: r77\.s0\.AB\.[0-9a-f.]+\); they were left out/);
    assert.match(r.err, /given two different results \(first: r4\.s0\.AB\.[0-9a-f.]+\)/);
  });

  it('refuses up front a batch panel whose judge names another endpoint (the CLI and the editor share the rule)', async () => {
    const tpl = path.join(dir, 'p.judge');
    fs.writeFileSync(tpl, panelTemplate(['m1', 'm2@http://127.0.0.1:9/v1', 'm3']));
    const data = writeJsonl(path.join(dir, 'p.jsonl'), [{ prompt: 'q', response_a: 'a', response_b: 'b' }]);
    // A UsageError: the CLI prints it and exits 2.
    await assert.rejects(batch('submit', tpl, '--data', data, '--state', path.join(dir, 'p.state.json'), '--base-url', fake.baseURL), /judge m2 names its own endpoint .*a provider batch runs at one endpoint/);
    assert.equal(fake.log.length, 0, 'nothing was uploaded');
    const judge = prepareJudge(fs.readFileSync(tpl, 'utf8'));
    assert.ok(judge.ok);
    const spec = batchPanelSpec(judge.judge, [{ model: 'm1' }, { model: 'm1' }], fake.baseURL, undefined);
    assert.ok(spec.ok);
    assert.deepEqual(spec.panel.members.map((m) => m.label), ['m1@127.0.0.1#1', 'm1@127.0.0.1#2'].map((l) => l.replace('127.0.0.1', new URL(fake.baseURL).host)));
  });

  it('collect refuses a results file another writer holds, naming it, and writes nothing', async () => {
    const a = await job('a', rows('a'));
    const out = path.join(dir, 'r.jsonl');
    const lock = await acquireResultsLock(out, { command: 'judge-studio run t.judge --resume' });
    try {
      const r = await batch('collect', '--state', a.state, '--out', out);
      assert.equal(r.code, EXIT_USAGE);
      assert.match(r.err, new RegExp(`being written by another run \\(pid ${process.pid} .*running "judge-studio run t\\.judge --resume"`));
      assert.equal(fs.existsSync(out), false);
    } finally {
      await lock.release();
    }
    assert.equal((await batch('collect', '--state', a.state, '--out', out)).code, EXIT_OK, 'once released, collect writes');
  });
});

