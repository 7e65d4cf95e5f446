// The reference is the registries: docs/reference/ is what they generate, and the code emits no
// diagnostic code the registry does not have (each would be missing from the page users read).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DIAGNOSTICS } from '../../src/core/diagnostics';
import { columnsPage, diagnosticsPage, errorKindsPage, referenceFiles } from '../../src/core/reference';
import { cliPage, cliReferenceFiles } from '../../src/cli/options/reference';
import type { CommandSpec } from '../../src/cli/options/flags';

const root = path.resolve(__dirname, '../../..');

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/**
 * Codes a diagnostics-producing file writes: `code: 'x'`, and the branches of a ternary that picks
 * one (`const gapCode = … ? 'rubric-gap' : 'ranking-level-missing'`). Zod's issue code 'custom' is not ours.
 */
function emittedCodes(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\bcode: '([a-z][a-z0-9-]*)'/g)) found.add(m[1]!);
  for (const line of text.split('\n').filter((l) => /\b\w*[cC]ode\s*=/.test(l))) {
    for (const m of line.matchAll(/[?:]\s*'([a-z][a-z0-9]*(?:-[a-z0-9]+)+)'/g)) found.add(m[1]!);
  }
  found.delete('custom');
  return [...found];
}

describe('generated reference', () => {
  for (const file of [...referenceFiles(), ...cliReferenceFiles()]) {
    it(`${file.path} is what the registry generates`, () => {
      const onDisk = fs.existsSync(path.join(root, file.path)) ? fs.readFileSync(path.join(root, file.path), 'utf8') : '(missing)';
      assert.ok(onDisk === file.text, `${file.path} differs from the registry: run \`npm run reference\` and commit the result`);
    });
  }

  it('emits no diagnostic code the registry lacks', () => {
    const unregistered: string[] = [];
    for (const file of [...sources(path.join(root, 'src/core/template')), ...sources(path.join(root, 'src/core/verdict'))]) {
      for (const code of emittedCodes(fs.readFileSync(file, 'utf8'))) {
        if (!(code in DIAGNOSTICS)) unregistered.push(`${path.relative(root, file)}: ${code}`);
      }
    }
    assert.deepEqual(unregistered, [], 'add each to DIAGNOSTICS in src/core/diagnostics.ts (one line), then `npm run reference`');
  });

  it('finds codes written directly and picked by a ternary, and nothing else', () => {
    const text = "out.push({ severity: 'error', code: 'rubric-duplicate' });\nconst gapCode = k === 'pointwise' ? 'rubric-gap' : 'ranking-level-missing';\nconst code = reason === 'too-large' ? 'verdict-pattern-unsafe' : 'x-y';\nctx.addIssue({ code: 'custom' });\nconst label = 'not-a-code';";
    assert.deepEqual(emittedCodes(text).sort(), ['ranking-level-missing', 'rubric-duplicate', 'rubric-gap', 'verdict-pattern-unsafe', 'x-y']);
  });

  it('renders a row per entry, escaping what would break a table', () => {
    assert.match(diagnosticsPage({ 'a-b': { severity: 'warning', meaning: 'x | y', also: 'error when z' } }), /\| `a-b` \| warning \(error when z\) \| x \\\| y \|\n/);
    assert.match(columnsPage([{ name: 'score_*', feature: 'criteria', description: 'one\ncriterion' }]), /## Templates with weighted criteria\n\n\| column \| meaning \|\n\|---\|---\|\n\| `m\/score_\*` \| one criterion \|/);
    assert.match(errorKindsPage(['quorum'], { quorum: 'too few' }), /\| `quorum` \| too few \|/);
  });

  it('documents each command flag from its table: a flag added to a table appears in the CLI page', () => {
    const spec: CommandSpec = { name: 'x', usage: ['x <f>'], summary: 's', description: 'd', options: { 'dry-run': { type: 'boolean', help: 'call | nothing' }, rows: { type: 'string', arg: 'A-B', help: 'only\nthese' } } };
    const page = cliPage([spec]);
    assert.match(page, /\| `--dry-run` \| call \\\| nothing \|\n\| `--rows A-B` \| only these \|\n\| `-h, --help` \|/);
    assert.match(page, /\| \[`x`\]\(#x\) \| s \|/);
  });
});
