// src/core is a library for plain node: nothing under it may import `vscode` (design.md, style.md).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';

const CORE = path.resolve(__dirname, '../../../src/core');
const SOURCE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs)$/;

/** Module names a file imports, requires or re-exports, read by TypeScript's scanner (comments and strings don't count). */
export function importedModules(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

export function importsVscode(text: string): boolean {
  return importedModules(text).some((m) => m === 'vscode' || m.startsWith('vscode/'));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return SOURCE.test(e.name) ? [full] : [];
  });
}

/** Files under `dir` (relative paths) that import vscode. */
function vscodeImporters(dir: string): string[] {
  return sourceFiles(dir)
    .filter((f) => importsVscode(fs.readFileSync(f, 'utf8')))
    .map((f) => path.relative(dir, f).split(path.sep).join('/'));
}

describe('src/core never imports vscode', () => {
  it('finds no import, require or re-export of vscode in any file under src/core', () => {
    assert.ok(sourceFiles(CORE).length > 10, `expected the core sources under ${CORE}`);
    const offenders = vscodeImporters(CORE);
    assert.deepEqual(offenders, [], `these files under src/core import vscode: ${offenders.join(', ')}`);
  });

  it('names a nested file that imports vscode', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'core-imports-'));
    try {
      fs.mkdirSync(path.join(dir, 'template'));
      fs.writeFileSync(path.join(dir, 'template', 'clean.ts'), "import { z } from 'zod';\n");
      fs.writeFileSync(path.join(dir, 'template', 'bad.ts'), "import { z } from 'zod';\nimport * as vscode from 'vscode';\n");
      assert.deepEqual(vscodeImporters(dir), ['template/bad.ts']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('recognises every way a file can pull vscode in', () => {
    for (const text of [
      "import * as vscode from 'vscode';",
      'import type { Uri } from "vscode";',
      "import 'vscode';",
      "export { window } from 'vscode';",
      "const vscode = require('vscode');",
      "const m = await import('vscode');",
      "import vscode = require('vscode');",
      "import { x } from 'vscode/lib/thing';",
    ]) {
      assert.equal(importsVscode(text), true, text);
    }
  });

  it('does not mistake comments, strings or look-alike modules for an import', () => {
    for (const text of [
      "// import * as vscode from 'vscode';",
      "const s = \"require('vscode')\";",
      "import { x } from 'vscode-languageserver';",
      "import { y } from './vscode';",
    ]) {
      assert.equal(importsVscode(text), false, text);
    }
  });
});
