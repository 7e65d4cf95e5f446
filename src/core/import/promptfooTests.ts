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
import { loadPromptfooYaml, type YamlPath } from './promptfooYaml';
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
  /** The test's vars (defaultTest's included), which promptfoo fills the assertion's `value` from; undefined when not known here (a defaultTest assertion runs with each test's vars). */
  vars: ReadonlySet<string> | undefined;
  /** The file the assertion is written in, as shown to the user, and the line of its `value` (else of the assertion). */
  file: string;
  line: number | undefined;
}

/** Where in which file a test or assertion is: for line numbers in warnings. */
interface Place {
  file: string;
  lineAt: ((path: YamlPath) => number | undefined) | undefined;
  path: YamlPath;
}

export interface TestContext {
  files: ReferencedFiles | undefined;
  problems: ImportProblem[];
}

/** The config itself: its name as shown, and the line of a key path in it. */
export interface ConfigPlace {
  file: string;
  lineAt: (path: YamlPath) => number | undefined;
}

const at = (p: Place, ...more: (string | number)[]): Place => ({ ...p, path: [...p.path, ...more] });

/** The names of a test's `vars` mapping (a vars file or list is not read here). */
function varNames(vars: unknown): Set<string> {
  return new Set(Object.keys(asObject(vars) ?? {}));
}

export function asObject(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Every assertion of the config, in file order, with its grading options. */
export async function collectAssertions(config: Obj, dir: string, ctx: TestContext, place: ConfigPlace): Promise<AssertionSite[]> {
  const sites: AssertionSite[] = [];
  const root: Place = { file: place.file, lineAt: place.lineAt, path: [] };
  let defaultTest = config.defaultTest;
  let dtPlace = at(root, 'defaultTest');
  if (typeof defaultTest === 'string') {
    const loaded = await loadOne(defaultTest, dir, 'defaultTest', ctx);
    defaultTest = loaded?.value;
    if (loaded) dtPlace = loaded.place;
  }
  const dt = asObject(defaultTest);
  const defaults = asObject(dt?.options) ?? {};
  const defaultVars = varNames(dt?.vars);
  if (dt) await assertionsOf(dt, 'defaultTest', dir, defaults, undefined, at(dtPlace, 'assert'), sites, ctx);
  const tests = config.tests;
  if (tests === undefined || tests === null) return sites;
  const entries = Array.isArray(tests) ? tests : [tests];
  for (const [i, entry] of entries.entries()) {
    const where = Array.isArray(tests) ? `tests[${i}]` : 'tests';
    const ref = typeof entry === 'string' ? entry : typeof asObject(entry)?.path === 'string' ? (asObject(entry)!.path as string) : undefined;
    if (ref !== undefined) {
      for (const loaded of await loadTestFiles(ref, dir, where, ctx)) {
        for (const [j, t] of loaded.tests.entries()) await testAssertions(t, `${loaded.name}[${j}]`, loaded.dir, defaults, defaultVars, { file: loaded.name, lineAt: loaded.lineAt, path: loaded.single ? [] : [j] }, sites, ctx);
      }
    } else await testAssertions(entry, where, dir, defaults, defaultVars, at(root, 'tests', ...(Array.isArray(tests) ? [i] : [])), sites, ctx);
  }
  return sites;
}

async function testAssertions(entry: unknown, where: string, dir: string, defaults: Obj, defaultVars: ReadonlySet<string>, place: Place, sites: AssertionSite[], ctx: TestContext): Promise<void> {
  let test = entry;
  let testDir = dir;
  let testPlace = place;
  if (typeof entry === 'string') {
    // A test that is a file of its own (promptfoo's readTest on a string).
    const loaded = await loadOne(entry, dir, where, ctx);
    if (!loaded) return;
    test = loaded.value;
    testDir = path.dirname(loaded.file);
    testPlace = loaded.place;
  }
  const t = asObject(test);
  if (!t) {
    ctx.problems.push({ severity: 'error', where, message: 'a test is a mapping (with vars and assert); skipped' });
    return;
  }
  if (typeof t.threshold === 'number') {
    ctx.problems.push({ severity: 'warning', where, message: `the test passes when the weighted mean of its assertion scores is at least ${t.threshold}; each template judges one assertion, so combine their m/score columns yourself` });
  }
  // A vars file or list is not read here: then the names are not known (undefined).
  const vars = t.vars === undefined || asObject(t.vars) ? new Set([...defaultVars, ...varNames(t.vars)]) : undefined;
  await assertionsOf(t, where, testDir, { ...defaults, ...(asObject(t.options) ?? {}) }, vars, at(testPlace, 'assert'), sites, ctx);
}

/** `list` is where the `assert` list itself is written. */
async function assertionsOf(test: Obj, where: string, dir: string, options: Obj, vars: ReadonlySet<string> | undefined, list: Place, sites: AssertionSite[], ctx: TestContext): Promise<void> {
  let entries = test.assert;
  if (entries === undefined) return;
  if (typeof entries === 'string') entries = [entries];
  if (!Array.isArray(entries)) {
    ctx.problems.push({ severity: 'error', where: `${where}.assert`, message: '`assert` is not a list of assertions; skipped' });
    return;
  }
  for (const [j, a] of entries.entries()) {
    const where_ = `${where}.assert[${j}]`;
    const here = at(list, j);
    if (typeof a === 'string') {
      // An assertions file (a YAML list of assertions).
      const loaded = await loadOne(a, dir, where_, ctx);
      if (!loaded) continue;
      if (!Array.isArray(loaded.value)) {
        ctx.problems.push({ severity: 'error', where: where_, message: `${a} does not hold a list of assertions; skipped` });
        continue;
      }
      await assertionsOf({ assert: loaded.value }, ctx.files?.show(loaded.file) ?? a, path.dirname(loaded.file), options, vars, loaded.place, sites, ctx);
      continue;
    }
    const assertion = asObject(a);
    if (!assertion) {
      ctx.problems.push({ severity: 'error', where: where_, message: 'an assertion is a mapping with a `type`; skipped' });
      continue;
    }
    if (assertion.type === 'assert-set') {
      const extras = ['threshold', 'weight', 'metric'].filter((k) => assertion[k] !== undefined);
      if (extras.length > 0) {
        ctx.problems.push({ severity: 'warning', where: where_, message: `assert-set ${extras.map((k) => `${k}: ${JSON.stringify(assertion[k])}`).join(', ')} combines its members' scores; each member becomes a template of its own` });
      }
      await assertionsOf({ assert: assertion.assert }, where_, dir, options, vars, at(here, 'assert'), sites, ctx);
      continue;
    }
    const line = list.lineAt?.([...here.path, 'value']) ?? list.lineAt?.(here.path);
    sites.push({ assertion, where: where_, rubricPrompt: assertion.rubricPrompt ?? options.rubricPrompt, provider: assertion.provider ?? options.provider, dir, vars, file: list.file, line });
  }
}

interface LoadedTests {
  name: string;
  dir: string;
  tests: unknown[];
  /** Lines of a YAML/JSON tests file; `single` when it holds one test rather than a list. */
  lineAt: ((path: YamlPath) => number | undefined) | undefined;
  single: boolean;
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
    const parsed = parseTests(read.text, read.file, name, ctx.problems);
    if (parsed) out.push({ name, dir: path.dirname(read.file), ...parsed });
  }
  return out;
}

type ParsedTests = Pick<LoadedTests, 'tests' | 'lineAt' | 'single'>;

function parseTests(text: string, file: string, name: string, problems: ImportProblem[]): ParsedTests | undefined {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return { tests: csvTests(text, name, problems), lineAt: undefined, single: false };
  if (ext === '.jsonl') {
    const items = parseDataset(text, 'jsonl');
    for (const s of items.filter(isSkip)) problems.push({ severity: 'error', where: `${name}:${s.line}`, message: `${s.error}; the test is skipped` });
    return { tests: items.flatMap((i) => (isSkip(i) ? [] : [i.record])), lineAt: undefined, single: false };
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
  const tests = Array.isArray(loaded.value) ? loaded.value : loaded.value === undefined || loaded.value === null ? [] : [loaded.value];
  return { tests, lineAt: loaded.lineAt, single: !Array.isArray(loaded.value) };
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
    const vars = Object.fromEntries(Object.entries(r).filter(([k]) => !k.startsWith('__')));
    const metric = typeof r.__metric === 'string' && r.__metric !== '' ? r.__metric : undefined;
    for (const [key, value] of Object.entries(r)) {
      if (!key.startsWith('__expected') || typeof value !== 'string' || value.trim() === '') continue;
      assert.push({ ...assertionFromCell(value), ...(metric ? { metric } : {}) });
    }
    const threshold = typeof r.__threshold === 'string' && r.__threshold !== '' ? Number(r.__threshold) : undefined;
    tests.push({ vars, assert, ...(threshold !== undefined && Number.isFinite(threshold) ? { threshold } : {}) });
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
async function loadOne(ref: string, dir: string, where: string, ctx: TestContext): Promise<{ value: unknown; file: string; place: Place } | undefined> {
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
  return { value: loaded.value, file: read.file, place: { file: ctx.files.show(read.file), lineAt: loaded.lineAt, path: [] } };
}
