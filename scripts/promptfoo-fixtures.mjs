#!/usr/bin/env node
// Renders the grading prompts promptfoo sends for the configs in test/fixtures/promptfoo-<version>/configs,
// with that release's own npm package, into rendered.json beside them. Run by hand, never in CI (CI
// only reads the fixtures; promptfoo is not a dependency of this project):
//
//   npm install --prefix /tmp/pf promptfoo@0.121.20 --ignore-scripts --no-audit --no-fund
//   node scripts/promptfoo-fixtures.mjs /tmp/pf
//
// Each model-graded assertion of each inline test is run through promptfoo's own runAssertion with
// a grader provider that records the prompt it is sent and answers a fixed reply; the messages are
// those promptfoo's chat providers build from that prompt (its parseChatPrompt). A test gives the
// response being graded in `metadata.response` and the prompt is `prompts[0]` rendered with its vars.
import { createRequire } from 'node:module';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const VERSION = '0.121.20';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, 'test/fixtures', `promptfoo-${VERSION}`);
const GRADED = new Set(['llm-rubric', 'not-llm-rubric', 'g-eval', 'model-graded-closedqa', 'not-model-graded-closedqa']);

const prefix = path.resolve(process.argv[2] ?? '/tmp/pf');
const pkgDir = path.join(prefix, 'node_modules/promptfoo');
const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
if (pkg.version !== VERSION) {
  console.error(`${pkgDir} is promptfoo ${pkg.version}; these fixtures are rendered by ${VERSION} (npm install --prefix ${prefix} promptfoo@${VERSION} --ignore-scripts)`);
  process.exit(2);
}
// Keep promptfoo's own state (config, cache, database) out of the user's home and quiet.
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-fixtures-'));
Object.assign(process.env, { PROMPTFOO_CONFIG_DIR: home, PROMPTFOO_DISABLE_TELEMETRY: '1', PROMPTFOO_DISABLE_UPDATE: '1', PROMPTFOO_CACHE_ENABLED: 'false', LOG_LEVEL: 'error' });

const require = createRequire(path.join(pkgDir, 'package.json'));
const yaml = require('js-yaml'); // promptfoo reads configs with js-yaml
const nunjucks = require('nunjucks');
const promptfoo = await import(pathToFileURL(path.join(pkgDir, 'dist/src/index.js')).href);
const { runAssertion } = promptfoo.assertions;
const parseChatPrompt = await findExport('function parseChatPrompt', 'parseChatPrompt');

/** An internal function of the bundle: the chunk that defines it, and the alias it is exported under. */
async function findExport(marker, name) {
  const dist = path.join(pkgDir, 'dist/src');
  for (const f of fs.readdirSync(dist).filter((n) => n.endsWith('.js')).sort()) {
    const text = fs.readFileSync(path.join(dist, f), 'utf8');
    if (!text.includes(marker)) continue;
    const alias = new RegExp(`\\b${name} as (\\w+)`).exec(text.slice(text.lastIndexOf('export {')));
    if (!alias) continue;
    const mod = await import(pathToFileURL(path.join(dist, f)).href);
    if (typeof mod[alias[1]] === 'function') return mod[alias[1]];
  }
  throw new Error(`${name} not found in promptfoo ${VERSION}`);
}

/** Fixed grader replies, so promptfoo goes on to the call whose prompt the import reproduces. */
function reply(prompt) {
  if (prompt.includes('generate 3-4 concise evaluation steps')) return '{"steps":["Read the reply.","Check it against the criteria.","Note what is missing."]}';
  if (prompt.includes('[BEGIN DATA]')) return 'It meets the criterion.\nY\nY';
  if (prompt.includes('"score" key')) return '{"score":7,"reason":"Mostly meets the criteria."}';
  return '{"reason": "Meets the rubric.", "pass": true, "score": 1}';
}

const cases = [];
for (const file of fs.readdirSync(path.join(DIR, 'configs')).filter((f) => /\.ya?ml$/.test(f)).sort()) {
  const config = yaml.load(fs.readFileSync(path.join(DIR, 'configs', file), 'utf8'));
  const template = Array.isArray(config.prompts) ? config.prompts[0] : config.prompts;
  for (const [i, test] of (config.tests ?? []).entries()) {
    const vars = test.vars ?? {};
    const prompt = nunjucks.renderString(template, vars);
    const response = test.metadata?.response;
    if (typeof response !== 'string') throw new Error(`${file} tests[${i}]: metadata.response (the output graded) is missing`);
    for (const [j, assertion] of (test.assert ?? []).entries()) {
      if (!GRADED.has(assertion.type)) continue;
      const calls = [];
      const grader = {
        id: () => 'judge-studio-fixture-grader',
        callApi: async (p) => {
          calls.push(p);
          return { output: reply(p), tokenUsage: {} };
        },
      };
      const { provider: _ignored, ...rest } = assertion;
      const result = await runAssertion({
        prompt,
        provider: grader,
        assertion: rest,
        test: { ...test, options: { ...test.options, provider: grader } },
        vars,
        providerResponse: { output: response },
      });
      const where = `tests[${i}].assert[${j}]`;
      const graded = calls.filter((p) => !p.includes('generate 3-4 concise evaluation steps'));
      if (graded.length === 0) throw new Error(`${file} ${where}: promptfoo sent no grading prompt (${result.reason})`);
      const steps = calls.length > graded.length ? JSON.parse(reply(calls[0])).steps.join('\n- ') : undefined;
      for (const [k, p] of graded.entries()) {
        cases.push({
          config: file,
          where,
          ...(graded.length > 1 ? { criterion: k + 1 } : {}),
          // The dataset row a template reads: the test's vars, the prompt and the response graded (and g-eval's steps).
          row: { ...vars, prompt, response, ...(steps !== undefined ? { steps } : {}) },
          messages: parseChatPrompt(p, [{ role: 'user', content: p }]),
        });
      }
    }
  }
}
const out = path.join(DIR, 'rendered.json');
fs.writeFileSync(out, `${JSON.stringify({ promptfoo: VERSION, rendered_by: 'scripts/promptfoo-fixtures.mjs', cases }, null, 2)}\n`);
fs.rmSync(home, { recursive: true, force: true });
console.log(`${cases.length} grading prompts rendered by promptfoo ${VERSION} into ${path.relative(ROOT, out)}`);
process.exit(0);
