// `judge-studio validate` and `judge-studio render`: in-process through main(argv, io), and for
// real through the bundled dist/cli.js.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';

const ROOT = path.resolve(__dirname, '../../..');
const EXAMPLE_FILES = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.judge')).sort().map((f) => `examples/${f}`);

/** The acceptance template: a {{respnse}} typo on line 22 and a rubric that skips 3 (reported on line 14, where 3 belongs). */
const TYPO_AND_GAP = `---
name: helpfulness
kind: pointwise
scale: [1, 5]
---
# Criteria

Helpful?

# Rubric

- 5: Great.
- 4: Good.
- 2: Weak.
- 1: Bad.

# Evaluation steps

Score it.

{{prompt}}
{{respnse}}
`;

const FENCED_RUBRIC = `---
name: helpfulness
kind: pointwise
scale: [1, 2]
---
# Criteria

Helpful?

\`\`\`
# Rubric
- 2: Yes.
- 1: No.
\`\`\`

# Evaluation steps

Score it.

{{prompt}} <response>{{response}}</response>
`;

const PROMPT_ONLY = TYPO_AND_GAP.replace('{{respnse}}', '{{response}}').replace('- 2: Weak.', '- 3: Fair.\n- 2: Weak.').replace('{{prompt}}\n', '');

const JSON_KEYS = ['code', 'column', 'endColumn', 'endLine', 'file', 'line', 'message', 'severity'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], cwd = ROOT): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd, env: {} });
  return { code, stdout, stderr };
}

let tmp = '';

function file(name: string, text: string): string {
  fs.writeFileSync(path.join(tmp, name), text);
  return name;
}

describe('judge-studio validate (in-process)', () => {
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-validate-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('exits 0 for the example templates and says how many files it checked', async () => {
    const run = await cli(['validate', ...EXAMPLE_FILES]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(run.stdout, `${EXAMPLE_FILES.length} files checked: no errors or warnings\n`);
  });

  it('prints file:line:col severity code message for a typo and a rubric gap, and exits 1', async () => {
    const run = await cli(['validate', file('typo.judge', TYPO_AND_GAP)], tmp);
    assert.equal(run.code, 1);
    const lines = run.stdout.trim().split('\n');
    assert.ok(lines.some((l) => l.startsWith('typo.judge:14:1 error rubric-gap The rubric skips score 3')), run.stdout);
    assert.ok(lines.some((l) => l.startsWith('typo.judge:22:3 error unknown-placeholder Unknown placeholder `respnse`; did you mean `response`?')), run.stdout);
  });

  it('reports missing-section when the only # Rubric sits inside a code fence', async () => {
    const run = await cli(['validate', '--json', file('fenced.judge', FENCED_RUBRIC)], tmp);
    assert.equal(run.code, 1);
    const diags = JSON.parse(run.stdout) as { code: string; message: string }[];
    assert.deepEqual(diags.map((d) => d.code), ['missing-section']);
    assert.match(diags[0]!.message, /# Rubric/);
  });

  it('prints --json as an array of {file, line, column, endLine, endColumn, severity, code, message}', async () => {
    const run = await cli(['validate', '--json', file('typo.judge', TYPO_AND_GAP)], tmp);
    const diags = JSON.parse(run.stdout) as Record<string, unknown>[];
    assert.ok(diags.length >= 2);
    for (const d of diags) {
      assert.deepEqual(Object.keys(d).sort(), JSON_KEYS);
      assert.equal(d.file, 'typo.judge');
      for (const k of ['line', 'column', 'endLine', 'endColumn']) assert.ok(Number.isInteger(d[k]) && (d[k] as number) >= 1);
      assert.ok(['error', 'warning', 'info'].includes(d.severity as string));
    }
    assert.equal(run.stderr, '');
  });

  it('prints an empty JSON array for clean templates', async () => {
    const run = await cli(['validate', '--json', ...EXAMPLE_FILES]);
    assert.deepEqual([run.code, JSON.parse(run.stdout)], [0, []]);
  });

  it('exits 0 on warnings alone, and 1 with --warnings-as-errors', async () => {
    const name = file('warn.judge', PROMPT_ONLY);
    const plain = await cli(['validate', name], tmp);
    assert.equal(plain.code, 0, plain.stdout);
    assert.match(plain.stdout, /warning missing-placeholder/);
    const lines = plain.stdout.split('\n');
    assert.equal(lines.pop(), '', 'the output ends with a line break');
    assert.match(lines.pop() ?? '', /^1 file checked: \d+ warnings?$/, 'the summary is its own last line');
    assert.ok(lines.length > 0 && lines.every((l) => /^warn\.judge:\d+:\d+ (warning|info) /.test(l)), plain.stdout);
    assert.equal((await cli(['validate', '--warnings-as-errors', name], tmp)).code, 1);
  });

  it('exits 2 naming a file it cannot read', async () => {
    const run = await cli(['validate', 'examples/helpfulness.judge', 'no-such.judge']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /no-such\.judge: cannot read the template \(ENOENT\)/);
  });

  it('exits 2 with no files or an unknown flag', async () => {
    assert.equal((await cli(['validate'])).code, 2);
    assert.equal((await cli(['validate', '--jsn', 'examples/helpfulness.judge'])).code, 2);
  });
});

describe('judge-studio render (in-process)', () => {
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-render-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const helpfulness = ['render', 'examples/helpfulness.judge', '--data', 'examples/helpfulness.jsonl'];

  it('prints --json as {messages: [{role, content}]} for the chosen row', async () => {
    const run = await cli([...helpfulness, '--row', '3', '--json']);
    assert.equal(run.code, 0, run.stderr);
    const out = JSON.parse(run.stdout) as { messages: { role: string; content: string }[] };
    assert.deepEqual(Object.keys(out), ['messages']);
    assert.deepEqual(out.messages.map((m) => Object.keys(m)), [['role', 'content'], ['role', 'content']]);
    assert.deepEqual(out.messages.map((m) => m.role), ['system', 'user']);
    assert.match(out.messages[1]!.content, /User prompt:\nWhat's the capital of Australia\?\n\nResponse to evaluate:\n<response>\nSydney is the capital/);
  });

  it('renders row 1 by default, as readable text without --json', async () => {
    const run = await cli(helpfulness);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /^----- system -----\n/);
    assert.match(run.stdout, /\n----- user -----\n[\s\S]*How many days are in a leap year\?/);
  });

  it('exchanges the Vertex pair with --swap', async () => {
    const args = ['render', 'examples/fluency_pairwise.judge', '--data', 'examples/fluency_pairwise.jsonl', '--json'];
    const plain = JSON.parse((await cli(args)).stdout) as { messages: { content: string }[] };
    const swapped = JSON.parse((await cli([...args, '--swap'])).stdout) as { messages: { content: string }[] };
    assert.match(plain.messages[1]!.content, /Response A:\n<response_a>\nThe sun it rise up slow[^\n]*\n<\/response_a>\n\nResponse B:\n<response_b>\nThe sun rose slowly/);
    assert.match(swapped.messages[1]!.content, /Response A:\n<response_a>\nThe sun rose slowly[^\n]*\n<\/response_a>\n\nResponse B:\n<response_b>\nThe sun it rise up slow/);
  });

  it('exits 2 when --row is past the end of the dataset', async () => {
    const run = await cli([...helpfulness, '--row', '99']);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /there is no row 99 \(the file has 8 rows\)/);
  });

  it('exits 2 for a --row that is not a positive integer', async () => {
    assert.equal((await cli([...helpfulness, '--row', '0'])).code, 2);
    assert.equal((await cli([...helpfulness, '--row', 'two'])).code, 2);
  });

  it('exits 1 naming the field and the row when the row lacks a field', async () => {
    const data = file('rows.jsonl', '{"prompt": "p", "response": "r"}\n{"prompt": "only a prompt"}\n');
    const template = file('t.judge', fs.readFileSync(path.join(ROOT, 'examples/helpfulness.judge'), 'utf8'));
    const run = await cli(['render', template, '--data', data, '--row', '2'], tmp);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^rows\.jsonl:2: Row 2: field `response` is missing \(used at line \d+, column \d+\)/);
    assert.equal(run.stdout, '');
  });

  it('exits 1 without rendering a template that has errors, listing them', async () => {
    const template = file('typo.judge', TYPO_AND_GAP);
    const data = file('one.jsonl', '{"prompt": "p", "response": "r"}\n');
    const run = await cli(['render', template, '--data', data], tmp);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /typo\.judge:22:3 error unknown-placeholder/);
    assert.equal(run.stdout, '');
  });

  it('exits 2 for --swap on a pointwise template, a missing --data, or unreadable files', async () => {
    assert.equal((await cli([...helpfulness, '--swap'])).code, 2);
    assert.equal((await cli(['render', 'examples/helpfulness.judge'])).code, 2);
    assert.equal((await cli(['render', 'nope.judge', '--data', 'examples/helpfulness.jsonl'])).code, 2);
    assert.equal((await cli(['render', 'examples/helpfulness.judge', '--data', 'nope.jsonl'])).code, 2);
  });
});

describe('judge-studio validate and render (bundled CLI process)', function () {
  this.timeout(60_000);
  const CLI = path.join(ROOT, 'dist', 'cli.js');

  function run(args: string[], cwd = ROOT): Run {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000 });
    return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
  }

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-spawn-'));
    // Other targets of the build may fail while their authors work; the CLI bundle must still be fresh.
    const started = Date.now() - 1000;
    const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    const fresh = fs.existsSync(CLI) && fs.statSync(CLI).mtimeMs >= started;
    assert.ok(fresh, `node esbuild.mjs did not produce a fresh dist/cli.js:\n${build.stderr}`);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('validates the examples with exit code 0, also through bin/judge-studio.js', () => {
    assert.equal(run(['validate', ...EXAMPLE_FILES]).code, 0);
    const bin = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'judge-studio.js'), 'validate', ...EXAMPLE_FILES], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(bin.status, 0, bin.stderr);
  });

  it('exits 1 with unknown-placeholder and rubric-gap on their lines as --json', () => {
    fs.writeFileSync(path.join(tmp, 'typo.judge'), TYPO_AND_GAP);
    const r = run(['validate', '--json', 'typo.judge'], tmp);
    assert.equal(r.code, 1);
    const diags = JSON.parse(r.stdout) as Record<string, unknown>[];
    // The vague rubric's info-level lints are not what this test is about.
    assert.deepEqual(diags.filter((d) => d.severity !== 'info').map((d) => [d.code, d.line]), [['missing-placeholder', 6], ['rubric-gap', 14], ['unknown-placeholder', 22]]);
    assert.deepEqual(Object.keys(diags[0]!).sort(), JSON_KEYS);
  });

  it('exits 1 with missing-section for a rubric heading inside a code fence', () => {
    fs.writeFileSync(path.join(tmp, 'fenced.judge'), FENCED_RUBRIC);
    const r = run(['validate', 'fenced.judge'], tmp);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^fenced\.judge:6:1 error missing-section /);
  });

  it('exits 2 for an unreadable file', () => {
    const r = run(['validate', 'missing.judge'], tmp);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /missing\.judge: cannot read/);
  });

  it('renders --json messages, swaps with --swap, and exits 2 for a row out of range', () => {
    const args = ['render', 'examples/hhh.judge', '--data', 'examples/hhh.jsonl', '--row', '2', '--json'];
    const plain = JSON.parse(run(args).stdout) as { messages: { role: string; content: string }[] };
    const swapped = JSON.parse(run([...args, '--swap']).stdout) as { messages: { role: string; content: string }[] };
    assert.deepEqual(plain.messages.map((m) => m.role), ['system', 'user']);
    assert.match(plain.messages[1]!.content, /Response A:\n<response_a>\nThe chemical symbol for gold is Au[^\n]*\n<\/response_a>\n\nResponse B:\n<response_b>\nGold's symbol is Ag\./);
    assert.match(swapped.messages[1]!.content, /Response A:\n<response_a>\nGold's symbol is Ag\.\n<\/response_a>\n\nResponse B:\n<response_b>\nThe chemical symbol for gold is Au/);
    assert.equal(run([...args.slice(0, 5), '--row', '7']).code, 2);
  });

  it('exits 1 naming the missing field and its row', () => {
    fs.writeFileSync(path.join(tmp, 'rows.jsonl'), '{"prompt": "p"}\n');
    const r = run(['render', path.join(ROOT, 'examples/helpfulness.judge'), '--data', 'rows.jsonl'], tmp);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /Row 1: field `response` is missing/);
  });
});
