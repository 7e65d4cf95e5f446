// Turns the commented grammar source syntaxes/judge.tmLanguage.yaml into the JSON that VS Code
// loads. `--check` writes nothing and exits 1 when the checked-in JSON is stale (for CI).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const source = path.join(root, 'syntaxes', 'judge.tmLanguage.yaml');
const target = path.join(root, 'syntaxes', 'judge.tmLanguage.json');
const check = process.argv.includes('--check');

function fail(message) {
  console.error(`build-grammar: ${message}`);
  process.exit(1);
}

/** Every `#name` include must name a repository rule; a typo would silently drop highlighting. */
function checkIncludes(grammar) {
  const problems = [];
  const visit = (node, where) => {
    if (Array.isArray(node)) return node.forEach((n, i) => visit(n, `${where}[${i}]`));
    if (!node || typeof node !== 'object') return;
    if (typeof node.include === 'string' && node.include.startsWith('#') && !(node.include.slice(1) in grammar.repository)) {
      problems.push(`${where}: include ${node.include} names no rule in \`repository\``);
    }
    for (const [key, value] of Object.entries(node)) visit(value, `${where}.${key}`);
  };
  visit(grammar, 'grammar');
  return problems;
}

let grammar;
try {
  grammar = parse(readFileSync(source, 'utf8'));
} catch (e) {
  fail(`cannot read ${path.relative(root, source)}: ${e.message}`);
}
if (!grammar || grammar.scopeName !== 'source.judge' || typeof grammar.repository !== 'object') {
  fail(`${path.relative(root, source)} must define scopeName: source.judge and a repository`);
}
const problems = checkIncludes(grammar);
if (problems.length) fail(`${path.relative(root, source)}:\n  ${problems.join('\n  ')}`);

const output =
  JSON.stringify(
    {
      information_for_contributors: [
        'Generated from syntaxes/judge.tmLanguage.yaml by scripts/build-grammar.mjs.',
        'Edit the YAML (it documents every scope), then run: node scripts/build-grammar.mjs',
      ],
      ...grammar,
    },
    null,
    '\t',
  ) + '\n';

if (check) {
  const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
  if (current !== output) fail(`${path.relative(root, target)} is out of date; run: node scripts/build-grammar.mjs`);
  console.log(`build-grammar: ${path.relative(root, target)} is up to date`);
} else {
  writeFileSync(target, output);
  console.log(`build-grammar: wrote ${path.relative(root, target)}`);
}
