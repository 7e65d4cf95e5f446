// vscode-tmgrammar-test silently skips an assertion line it cannot parse (e.g. `- a - b`, which
// must be written `- a b`), and some malformed lines make its parser backtrack for minutes.
// So every assertion line in the fixtures is checked here first, with a strict and fast pattern.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const HEADER = /^(\S+)\s+SYNTAX\s+TEST\s+"[^"]+"(?:\s+"[^"]+")?\s*$/;
const SCOPE = String.raw`\w[-\w.]*`;
// carets or a left arrow, then required scopes, then optionally "-" and excluded scopes.
const ASSERTION = new RegExp(String.raw`^\s*(?:(?:\^+\s*)+|<~*-+)((?:\s+${SCOPE})*)(?:\s+-((?:\s+${SCOPE})+))?\s*$`);

let problems = 0;
const files = readdirSync(dir).filter((f) => f.endsWith('.judge'));
for (const file of files) {
  const lines = readFileSync(path.join(dir, file), 'utf8').split(/\r?\n/);
  const header = HEADER.exec(lines[0] ?? '');
  if (!header) {
    console.error(`${file}:1: the first line must be <token> SYNTAX TEST "source.judge" "description"`);
    problems++;
    continue;
  }
  const token = header[1];
  lines.forEach((line, i) => {
    if (i === 0 || !line.startsWith(token)) return;
    const rest = line.slice(token.length);
    if (!/^\s*(?:\^|<~*-)/.test(rest)) return; // a comment line, not an assertion
    const m = ASSERTION.exec(rest);
    if (!m || (!m[1]?.trim() && !m[2]?.trim())) {
      console.error(`${file}:${i + 1}: malformed assertion (write "scope scope - excluded excluded"): ${line}`);
      problems++;
    }
  });
}
if (files.length === 0) {
  console.error(`no *.judge fixtures in ${dir}`);
  process.exit(1);
}
if (problems) process.exit(1);
console.log(`lint-assertions: ${files.length} fixtures, all assertion lines well-formed`);
