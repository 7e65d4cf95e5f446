// A throwaway test workspace: a fresh copy of examples/ plus workspace settings, so tests can edit,
// add and delete files without touching the repository.
// CLI (used by the "Extension Tests" launch config): node test/e2e/harness/workspace.mjs <dest>
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Replaces `dest` with a copy of `<root>/examples` and writes its `.vscode/settings.json`. */
export function prepareWorkspace(root, dest) {
  const examples = path.join(root, 'examples');
  if (!existsSync(examples)) throw new Error(`${examples} does not exist: the tests open a copy of it`);
  rmSync(dest, { recursive: true, force: true });
  cpSync(examples, dest, { recursive: true });
  // Settings the tests rely on live in workspace-settings.json beside this file: pinned tabs (a
  // second open must not replace the first), no auto-save, and no git (the run dir sits inside
  // the repository's own checkout). Copied examples/.vscode settings are kept; ours win.
  const file = path.join(dest, '.vscode/settings.json');
  const own = existsSync(file) ? readJson(file) : {};
  const ours = readJson(path.join(here, 'workspace-settings.json'));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...own, ...ours }, null, 2) + '\n');
  return dest;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not plain JSON (${e.message}); the e2e workspace merges it, so drop comments and trailing commas`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dest = process.argv[2];
  if (!dest) {
    console.error('usage: node test/e2e/harness/workspace.mjs <dest>');
    process.exit(2);
  }
  console.log(prepareWorkspace(path.resolve(here, '../../..'), path.resolve(dest)));
}
