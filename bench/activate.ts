// Child process of the editor bench: loads the built extension with a stand-in `vscode` module
// (every API a no-op) and times module loading plus activate(). Prints {ms, failures}.
import Module from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

const failures: string[] = [];

/** An object whose every property and call gives another one: enough for activate() to register things. */
function standIn(name: string): unknown {
  const target = function () {};
  return new Proxy(target, {
    get(_, p) {
      if (p === Symbol.toPrimitive) return () => 0;
      if (p === 'then') return undefined; // not a promise
      if (p === Symbol.iterator) return function* () {};
      if (p === 'error') return (...args: unknown[]) => void failures.push(args.map(String).join(' '));
      return standIn(`${name}.${String(p)}`);
    },
    apply: () => standIn(`${name}()`),
    construct: () => standIn(`new ${name}`) as object,
  });
}

/** The names `vscode` exports, from its type declarations (an ES namespace import copies them). */
function vscodeNames(root: string): string[] {
  const d = fs.readFileSync(path.join(root, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  return [...new Set([...d.matchAll(/^\texport (?:namespace|class|enum|const|let|function) (\w+)/gm)].map((m) => m[1]!))];
}

async function main(): Promise<void> {
  const [extension, root] = process.argv.slice(2);
  if (!extension || !root) throw new Error('usage: activate.js <dist/extension.js> <repository root>');
  const vscode: Record<string, unknown> = {};
  for (const n of vscodeNames(root)) vscode[n] = standIn(`vscode.${n}`);
  const mod = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = mod._load;
  mod._load = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? vscode : load.call(this, request, ...rest);
  };
  const context = { subscriptions: [], extensionUri: standIn('uri'), globalState: standIn('state'), workspaceState: standIn('state'), secrets: standIn('secrets'), globalStorageUri: standIn('uri'), extensionPath: root, extension: standIn('extension') };
  const started = performance.now();
  const ext = require(extension) as { activate: (c: unknown) => unknown };
  await ext.activate(context);
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, failures }));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
