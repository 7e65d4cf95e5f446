// The architecture, held by tests rather than by memory (style.md 16–19): one result builder writes
// judge columns, one module turns a template into judge settings, only the transport builds API
// clients, the reply path (merge, columns, parsing) lives in the engine alone, and the engine's
// folders import one way.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importedModules } from './core-imports.test';

const SRC = path.resolve(__dirname, '../../../src');

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : /\.ts$/.test(e.name) ? [full] : [];
  });
}
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');
/** A judge column written: an object key `{ [`${m}/x`]: … }` or an assignment `x[`${m}/x`] = …` (human labels aside). */
const METRIC_KEY = /(?:(?:^\s*|[{,(]\s*)\[\s*`\$\{[^}]+\}\/(?!human_)[^`]*`\s*\]\s*:|[\w\])]\[\s*`\$\{[^}]+\}\/(?!human_)[^`]*`\s*\]\s*=(?!=))/;
/** Where an author model drafts text for a person to review (never a verdict). */
const AUTHOR = (f: string) => f.startsWith('core/generate/') || f === 'core/align/author.ts';
const SOURCES = files(SRC).map((f) => ({ file: rel(f), text: fs.readFileSync(f, 'utf8') }));

/** Lines of `text` matching `re`, as `file:line: text`. */
function hits(re: RegExp, allowed: (file: string) => boolean): string[] {
  return SOURCES.filter((s) => !allowed(s.file)).flatMap((s) =>
    s.text.split('\n').flatMap((line, i) => (re.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${s.file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('architecture', () => {
  it('sees the sources', () => assert.ok(SOURCES.length > 100));

  it('only the result builder (engine/line.ts) writes a judge column: metric/… keys anywhere else are human labels or read-side views', () => {
    // `{ [`${m}/score`]: … }` or `x[`${m}/score`] = …`, and `${prefix}${k}` keys, are how a column is written.
    const metricKey = METRIC_KEY;
    const prefixKey = /\[\s*`\$\{prefix\}\$\{/;
    // Calibration's criterion views rename columns in memory for the figures; they never reach a file.
    const allowed = (f: string) => f === 'core/judge/engine/line.ts' || f === 'core/calibration/criteria.ts';
    assert.deepEqual([...hits(metricKey, allowed), ...hits(prefixKey, allowed)], []);
  });

  it('only engine/settings.ts turns a template into judge settings', () => {
    // An author model's drafts (Generate Rubric, align's clarifications) are not judgments: their schema names are their own.
    const allowed = (f: string) => f === 'core/judge/engine/settings.ts' || AUTHOR(f);
    assert.deepEqual(hits(/\bschemaName\s*:/, (f) => allowed(f) || f === 'core/batch/state.ts'), []);
  });

  it('only the transport builds API clients: openai is imported for values nowhere else', () => {
    const offenders = SOURCES.filter((s) => !s.file.startsWith('core/judge/transport/')).flatMap((s) =>
      s.text.split('\n').flatMap((line, i) => {
        if (!/from 'openai(\/[^']*)?'/.test(line) || /^import type /.test(line.trim())) return [];
        // The Batch API boundary uploads with the SDK's helper and reads its error class; it builds no client.
        if (s.file === 'core/batch/api.ts' && /^import \{ (APIError, OpenAIError \} from 'openai\/core\/error'|toFile \} from 'openai\/core\/uploads')/.test(line.trim())) return [];
        return [`${s.file}:${i + 1}: ${line.trim()}`];
      }),
    );
    assert.deepEqual(offenders, []);
    assert.deepEqual(hits(/\bnew (OpenAI|AzureOpenAI)\(/, (f) => f.startsWith('core/judge/transport/')), []);
  });

  it('the reply path is the engine’s alone: merging, columns and JSON verdict reading happen nowhere else', () => {
    const engine = (f: string) => f.startsWith('core/judge/engine/') || f.startsWith('core/judge/strategies/');
    assert.deepEqual(hits(/strategy\.(merge|columns|errorColumns)\(/, engine), []);
    assert.deepEqual(hits(/\b(extractJson|jsonCandidates|pickJsonVerdict|checkReply)\(/, (f) => engine(f) || f === 'core/verdict/read.ts' || AUTHOR(f)), []);
    assert.equal(fs.existsSync(path.join(SRC, 'core/batch/assemble.ts')), false, 'the batch has no line builder of its own');
  });

  it('the engine’s folders import one way: transport and strategies know nothing of rows, runs or results files', () => {
    const layer = (f: string) => /^core\/judge\/([^/]+)\//.exec(f)?.[1];
    const forbidden: Record<string, string[]> = { transport: ['engine', 'run', 'panel', 'tiers', 'reports'], strategies: ['engine', 'run', 'panel', 'tiers', 'reports', 'transport'] };
    const offenders = SOURCES.flatMap((s) => {
      const from = layer(s.file);
      if (!from || !forbidden[from]) return [];
      return importedModules(s.text)
        .filter((m) => m.startsWith('.'))
        .map((m) => rel(path.resolve(path.dirname(path.join(SRC, s.file)), m)))
        .filter((target) => forbidden[from]!.includes(layer(`${target}/`) ?? ''))
        .map((target) => `${s.file} imports ${target}`);
    });
    assert.deepEqual(offenders, []);
  });

  it('catches a judge column written outside the builder (the check can fail)', () => {
    const metricKey = METRIC_KEY;
    assert.ok(!metricKey.test("  const raw = ok ? r[`${m}/score_rounded`] : r[`${m}/score`];"), 'a ternary read is no write');
    assert.ok(metricKey.test("    line[`${m}/score`] = 5;"));
    assert.ok(metricKey.test("  return { [`${metric}/tier`]: 'judge' };"));
    assert.ok(metricKey.test("      [`${metric}/tier`]: 'judge',"), 'a key on its own line');
    assert.ok(!metricKey.test("  if (line[`${m}/score`] === 5) return;"));
    assert.ok(!metricKey.test("  out[`${metric}/human_rating`] = label;"));
  });
});

/** What the CLI bundle statically loads from `entry` (dynamic imports load later, on use). */
async function staticReach(entry: string): Promise<{ reached: Set<string>; from: Map<string, string> }> {
  const esbuild = await import('esbuild');
  const root = path.resolve(SRC, '..');
  const r = await esbuild.build({
    entryPoints: [path.join(root, 'src/cli/main.ts')],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    splitting: true,
    outdir: path.join(root, 'out', 'arch-cli'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    define: { JUDGE_STUDIO_VERSION: '"0"' },
  });
  const inputs = r.metafile.inputs;
  const from = new Map<string, string>();
  const reached = new Set([entry]);
  const queue = [entry];
  while (queue.length > 0) {
    const f = queue.shift() as string;
    for (const i of inputs[f]?.imports ?? []) {
      if (i.kind === 'dynamic-import' || reached.has(i.path)) continue;
      reached.add(i.path);
      from.set(i.path, f);
      queue.push(i.path);
    }
  }
  return { reached, from };
}

describe('the CLI loads a command’s code on first use', function () {
  this.timeout(60_000);
  const heavy = ['node_modules/openai/', 'node_modules/yaml/', 'node_modules/handlebars/', 'node_modules/zod/', 'node_modules/markdown-it/'];
  const chain = (from: Map<string, string>, f: string) => {
    const out = [f];
    for (let at = from.get(f); at; at = from.get(at)) out.unshift(at);
    return out.join(' → ');
  };
  for (const entry of ['src/cli/main.ts', 'src/cli/commands/calibrate.ts']) {
    it(`${entry} reaches neither the openai SDK nor the template parser before a command needs them`, async () => {
      const { reached, from } = await staticReach(entry);
      assert.ok(reached.size > 3, 'the graph was read');
      const found = [...reached].filter((f) => heavy.some((h) => f.startsWith(h)));
      assert.deepEqual(found.slice(0, 1).map((f) => chain(from, f)), []);
    });
  }

  it('sees the template parser behind `validate` (the check can fail)', async () => {
    const { reached } = await staticReach('src/cli/commands/validate.ts');
    assert.ok([...reached].some((f) => f.startsWith('node_modules/yaml/')));
  });
});
