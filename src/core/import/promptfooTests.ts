// Where a promptfoo config's assertions are, as promptfoo finds them (src/util/testCaseReader.ts):
// `defaultTest` (inline or a `file://`), `tests` as a list of inline tests, `file://` paths and
// globs (YAML, JSON, JSONL or CSV test files, whose `__expected` columns are assertions), tests that
// are themselves a file, `assert` entries that are an assertions file, and `assert-set` members.
// Each assertion comes with the grading options in force for it (assertion over test over
// defaultTest), so a template gets the rubricPrompt and grader provider promptfoo would use.
import * as path from 'node:path';
import { parseDataset } from '../dataset';
import { isSkip } from '../dataset/types';
import type { ReferencedFiles } from './files';
import { loadPromptfooYaml } from './promptfooYaml';
import type { ImportProblem } from './types';

type Obj = Record<string, unknown>;

export interface AssertionSite {
  assertion: Obj;
  /** E.g. `tests[2].assert[0]` or `tests/refunds.yaml[1].assert[0].assert[1]`. */
  where: string;
  rubricPrompt: unknown;
  provider: unknown;
  /** The folder relative references in this assertion resolve from. */
  dir: string;
}

export interface TestContext {
  files: ReferencedFiles | undefined;
  problems: ImportProblem[];
}

export function asObject(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Every assertion of the config, in file order, with its grading options. */
export async function collectAssertions(config: Obj, dir: string, ctx: TestContext): Promise<AssertionSite[]> {
  const sites: AssertionSite[] = [];
  let defaultTest = config.defaultTest;
  if (typeof defaultTest === 'string') defaultTest = (await loadOne(defaultTest, dir, 'defaultTest', ctx))?.value;
  const dt = asObject(defaultTest);
  const defaults = asObject(dt?.options) ?? {};
  if (dt) await assertionsOf(dt, 'defaultTest', dir, defaults, sites, ctx);
  const tests = config.tests;
  if (tests === undefined || tests === null) return sites;
  const entries = Array.isArray(tests) ? tests : [tests];
  for (const [i, entry] of entries.entries()) {
    const where = Array.isArray(tests) ? `tests[${i}]` : 'tests';
    const ref = typeof entry === 'string' ? entry : typeof asObject(entry)?.path === 'string' ? (asObject(entry)!.path as string) : undefined;
    if (ref !== undefined) {
      for (const loaded of await loadTestFiles(ref, dir, where, ctx)) {
        for (const [j, t] of loaded.tests.entries()) await testAssertions(t, `${loaded.name}[${j}]`, loaded.dir, defaults, sites, ctx);
      }
    } else await testAssertions(entry, where, dir, defaults, sites, ctx);
  }
  return sites;
}

async function testAssertions(entry: unknown, where: string, dir: string, defaults: Obj, sites: AssertionSite[], ctx: TestContext): Promise<void> {
  let test = entry;
  let testDir = dir;
  if (typeof entry === 'string') {
    // A test that is a file of its own (promptfoo's readTest on a string).
    const loaded = await loadOne(entry, dir, where, ctx);
    if (!loaded) return;
    test = loaded.value;
    testDir = path.dirname(loaded.file);
  }
  const t = asObject(test);
  if (!t) {
    ctx.problems.push({ severity: 'error', where, message: 'a test is a mapping (with vars and assert); skipped' });
    return;
  }
  if (typeof t.threshold === 'number') {
    ctx.problems.push({ severity: 'warning', where, message: `the test passes when the weighted mean of its assertion scores is at least ${t.threshold}; each template judges one assertion, so combine their m/score columns yourself` });
  }
  await assertionsOf(t, where, testDir, { ...defaults, ...(asObject(t.options) ?? {}) }, sites, ctx);
}

async function assertionsOf(test: Obj, where: string, dir: string, options: Obj, sites: AssertionSite[], ctx: TestContext): Promise<void> {
  let list = test.assert;
  if (list === undefined) return;
  if (typeof list === 'string') list = [list];
  if (!Array.isArray(list)) {
    ctx.problems.push({ severity: 'error', where: `${where}.assert`, message: '`assert` is not a list of assertions; skipped' });
    return;
  }
  for (const [j, a] of list.entries()) {
    const at = `${where}.assert[${j}]`;
    if (typeof a === 'string') {
      // An assertions file (a YAML list of assertions).
      const loaded = await loadOne(a, dir, at, ctx);
      if (!loaded) continue;
      if (!Array.isArray(loaded.value)) {
        ctx.problems.push({ severity: 'error', where: at, message: `${a} does not hold a list of assertions; skipped` });
        continue;
      }
      await assertionsOf({ assert: loaded.value }, ctx.files?.show(loaded.file) ?? a, path.dirname(loaded.file), options, sites, ctx);
      continue;
    }
    const assertion = asObject(a);
    if (!assertion) {
      ctx.problems.push({ severity: 'error', where: at, message: 'an assertion is a mapping with a `type`; skipped' });
      continue;
    }
    if (assertion.type === 'assert-set') {
      const extras = ['threshold', 'weight', 'metric'].filter((k) => assertion[k] !== undefined);
      if (extras.length > 0) {
        ctx.problems.push({ severity: 'warning', where: at, message: `assert-set ${extras.map((k) => `${k}: ${JSON.stringify(assertion[k])}`).join(', ')} combines its members' scores; each member becomes a template of its own` });
      }
      await assertionsOf({ assert: assertion.assert }, at, dir, options, sites, ctx);
      continue;
    }
    sites.push({ assertion, where: at, rubricPrompt: assertion.rubricPrompt ?? options.rubricPrompt, provider: assertion.provider ?? options.provider, dir });
  }
}

interface LoadedTests {
  name: string;
  dir: string;
  tests: unknown[];
}

/** The tests in a `file://` path or glob: YAML/JSON lists or single tests, JSONL lines, CSV rows. */
async function loadTestFiles(ref: string, dir: string, where: string, ctx: TestContext): Promise<LoadedTests[]> {
  const fail = (message: string): LoadedTests[] => {
    ctx.problems.push({ severity: 'error', where, message: `${message}; its tests are not imported` });
    return [];
  };
  if (!ctx.files) return fail(`tests come from ${ref}; import the config file itself so the files it names can be read`);
  const bare = ref.replace(/^file:\/\//, '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(bare) || /\.(js|cjs|mjs|ts|py)(:|$)/.test(bare) || /\.xlsx?(#|$)/.test(bare)) {
    return fail(`${ref} is produced by code, a spreadsheet or a remote source, which an import cannot read`);
  }
  const resolved = await ctx.files.resolve(ref, dir);
  if (!resolved.ok) return fail(resolved.error);
  const out: LoadedTests[] = [];
  for (const file of resolved.files) {
    const read = await ctx.files.read(file);
    if (!read.ok) {
      fail(read.error);
      continue;
    }
    const name = ctx.files.show(read.file);
    const tests = parseTests(read.text, read.file, name, ctx.problems);
    if (tests) out.push({ name, dir: path.dirname(read.file), tests });
  }
  return out;
}

function parseTests(text: string, file: string, name: string, problems: ImportProblem[]): unknown[] | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return csvTests(text, name, problems);
  if (ext === '.jsonl') {
    const items = parseDataset(text, 'jsonl');
    for (const s of items.filter(isSkip)) problems.push({ severity: 'error', where: `${name}:${s.line}`, message: `${s.error}; the test is skipped` });
    return items.flatMap((i) => (isSkip(i) ? [] : [i.record]));
  }
  if (ext !== '.yaml' && ext !== '.yml' && ext !== '.json') {
    problems.push({ severity: 'error', where: name, message: 'a tests file is YAML, JSON, JSONL or CSV; skipped' });
    return undefined;
  }
  const loaded = loadPromptfooYaml(text);
  if (!loaded.ok) {
    problems.push({ severity: 'error', where: name, message: `not YAML (${loaded.error}); its tests are not imported` });
    return undefined;
  }
  for (const line of loaded.lenient) problems.push({ severity: 'warning', where: `${name}:${line}`, message: LENIENT });
  return Array.isArray(loaded.value) ? loaded.value : loaded.value === undefined || loaded.value === null ? [] : [loaded.value];
}

export const LENIENT = 'a quoted value continues on lines indented less than its key; read as promptfoo\'s YAML loader (js-yaml) reads it';

/** promptfoo's CSV tests: every `__expected…` cell is an assertion (`llm-rubric: …`, `grade: …`, `g-eval: …`). */
function csvTests(text: string, name: string, problems: ImportProblem[]): unknown[] {
  const tests: unknown[] = [];
  for (const item of parseDataset(text, 'csv')) {
    if (isSkip(item)) {
      problems.push({ severity: 'error', where: `${name}:${item.line}`, message: `${item.error}; the row is skipped` });
      continue;
    }
    const assert: Obj[] = [];
    const r = item.record;
    const metric = typeof r.__metric === 'string' && r.__metric !== '' ? r.__metric : undefined;
    for (const [key, value] of Object.entries(r)) {
      if (!key.startsWith('__expected') || typeof value !== 'string' || value.trim() === '') continue;
      assert.push({ ...assertionFromCell(value), ...(metric ? { metric } : {}) });
    }
    const threshold = typeof r.__threshold === 'string' && r.__threshold !== '' ? Number(r.__threshold) : undefined;
    tests.push({ assert, ...(threshold !== undefined && Number.isFinite(threshold) ? { threshold } : {}) });
  }
  return tests;
}

const CELL = /^(not-)?([a-z][a-z0-9:-]*?)(?:\((\d+(?:\.\d+)?)\))?(?::([\s\S]*))?$/;

/** promptfoo's assertionFromString for the cells an import cares about; the rest keep their type for the report. */
function assertionFromCell(cell: string): Obj {
  if (cell.startsWith('grade:') || cell.startsWith('llm-rubric:')) return { type: 'llm-rubric', value: cell.slice(cell.startsWith('grade:') ? 6 : 11) };
  if (/^(javascript|fn|eval|python):/.test(cell) || cell.startsWith('file://')) return { type: 'javascript', value: cell };
  const m = CELL.exec(cell);
  if (m && m[2] && !/\s/.test(m[2])) return { type: `${m[1] ?? ''}${m[2]}`, ...(m[4] !== undefined ? { value: m[4] } : {}) };
  return { type: 'equals', value: cell };
}

/** One referenced YAML/JSON file (a defaultTest, a test, an assertions list). */
async function loadOne(ref: string, dir: string, where: string, ctx: TestContext): Promise<{ value: unknown; file: string } | undefined> {
  const fail = (message: string) => {
    ctx.problems.push({ severity: 'error', where, message: `${message}; skipped` });
    return undefined;
  };
  if (!ctx.files) return fail(`${ref} is another file; import the config file itself so the files it names can be read`);
  if (!/\.(ya?ml|json)$/i.test(ref)) return fail(`${ref} is not a YAML or JSON file`);
  const resolved = await ctx.files.resolve(ref, dir);
  if (!resolved.ok) return fail(resolved.error);
  if (resolved.files.length !== 1) return fail(`${ref} names ${resolved.files.length} files; here it must name one`);
  const read = await ctx.files.read(resolved.files[0]!);
  if (!read.ok) return fail(read.error);
  const loaded = loadPromptfooYaml(read.text);
  if (!loaded.ok) return fail(`${ctx.files.show(read.file)} is not YAML (${loaded.error})`);
  for (const line of loaded.lenient) ctx.problems.push({ severity: 'warning', where: `${ctx.files.show(read.file)}:${line}`, message: LENIENT });
  return { value: loaded.value, file: read.file };
}
