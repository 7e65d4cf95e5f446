// `judge-studio <command> --help` and `judge-studio help <command>` print the command's usage,
// description and every flag of the table that parses them, exit 0 and touch nothing; an unknown
// flag's error points at --help (issue 31 item 8).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND_NAMES, main } from '../../src/cli/main';
import { flagLabel } from '../../src/cli/options/flags';
import { SPECS, specOf } from '../../src/cli/options';
import { ioSpyArgs } from '../support/ioSpy';
import { captureIO, tempDir } from '../support/judgeFixtures';
import { requireBundle, ROOT, runCli } from '../support/cliProcess';

/** Words before the flags, where a command takes a subcommand or format first. */
const LEAD: Record<string, string[]> = { labels: ['export'], batch: ['submit'], generate: ['rubric'], import: ['fastchat'], 'import-data': ['llmbar'] };
const BOGUS = 'no-such-file.judge';

describe('every command answers --help from its option table', () => {
  it('has a table for each command main dispatches, and no table without a command', () => {
    assert.deepEqual(SPECS.map((s) => s.name).sort(), [...COMMAND_NAMES].sort());
  });

  for (const name of COMMAND_NAMES) {
    it(`${name} --help prints its usage, description and every flag its table declares, and exits 0`, async () => {
      const spec = specOf(name)!;
      const io = captureIO(tempDir());
      assert.equal(await main([name, ...(LEAD[name] ?? []), BOGUS, '--help'], io), 0, io.err);
      assert.equal(io.err, '');
      assert.ok(io.out.startsWith(`Usage: judge-studio ${name}`), io.out.slice(0, 80));
      assert.ok(io.out.includes(spec.description.split(' ').slice(0, 4).join(' ')), 'the description is printed');
      const missing = Object.entries(spec.options).filter(([flag, f]) => !io.out.includes(`  ${flagLabel(flag, f)}`)).map(([flag]) => flag);
      assert.deepEqual(missing, [], 'each flag with its argument, at the start of its entry');
      assert.match(io.out, /-h, --help {2,}print this help/);
    });

    it(`help ${name} prints what ${name} --help prints`, async () => {
      const a = captureIO(tempDir());
      const b = captureIO(tempDir());
      assert.equal(await main(['help', name], a), 0);
      assert.equal(await main([name, '-h'], b), 0);
      assert.equal(a.out, b.out);
    });

    it(`${name}: an unknown flag is a usage error that ends by naming --help`, async () => {
      const io = captureIO(tempDir());
      assert.equal(await main([name, ...(LEAD[name] ?? []), '--no-such-flag'], io), 2);
      assert.match(io.err, new RegExp(`'--no-such-flag'.*; see \`judge-studio ${name} --help\`\\n$`));
    });
  }

  it('describes every flag and gives every string flag an argument name', () => {
    const bad = SPECS.flatMap((s) => Object.entries(s.options).filter(([, f]) => f.help.trim().length < 10 || (f.type === 'string' && !f.arg.trim())).map(([flag]) => `${s.name} --${flag}`));
    assert.deepEqual(bad, []);
  });

  it('lists every command in one line of the top-level help', async () => {
    const io = captureIO(tempDir());
    assert.equal(await main(['--help'], io), 0);
    const lines = io.out.split('\n');
    for (const s of SPECS) assert.equal(lines.filter((l) => l.startsWith(`  ${s.name} `)).length, 1, s.name);
    assert.ok(lines.every((l) => l.length <= 100), 'fits a terminal');
  });

  it('refuses help for a command that does not exist (exit 2)', async () => {
    const io = captureIO(tempDir());
    assert.equal(await main(['help', 'publish'], io), 2);
    assert.match(io.err, /unknown command "publish"/);
  });
});

describe('--help as a process', function () {
  this.timeout(60_000);
  before(requireBundle);

  /** What the CLI child touched: file paths and sockets, minus its own entry and bundle. */
  async function touched(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; io: string[] }> {
    const dir = tempDir();
    const log = path.join(tempDir(), 'io.jsonl');
    const spy = ioSpyArgs(log);
    const r = await runCli(args, { cwd: dir, deadlineMs: 30_000, nodeArgs: spy.nodeArgs, env: spy.env });
    assert.ok(!r.killed, 'the CLI ended in time');
    const own = new Set([path.join(ROOT, 'dist', 'cli.js')]);
    const lines = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : [];
    const io = lines.map((l) => JSON.parse(l) as { op: string; target: string }).filter((e) => !own.has(e.target)).map((e) => `${e.op} ${e.target}`);
    return { ...r, io };
  }

  it('reads no file and opens no socket for any command’s --help', async () => {
    for (const name of COMMAND_NAMES) {
      const r = await touched([name, ...(LEAD[name] ?? []), BOGUS, '--data', 'd.jsonl', '--help']);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.match(r.stdout, new RegExp(`^Usage: judge-studio ${name}`));
      assert.deepEqual(r.io, [], `${name} --help touched these`);
    }
  });

  it('sees the read when a command does run (the check can fail)', async () => {
    const r = await touched(['validate', BOGUS]);
    assert.equal(r.code, 2);
    assert.ok(r.io.some((e) => e.endsWith(BOGUS)), r.io.join('\n'));
  });

  it('ends an unknown flag’s message by naming --help, exit 2', async () => {
    const r = await touched(['calibrate', 'results.jsonl', '--metric', 'm', '--no-such-flag']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /; see `judge-studio calibrate --help`\n$/);
    assert.deepEqual(r.io, []);
  });
});
