// One build for the three targets: the extension (node, cjs, `vscode` external),
// the CLI (node) and the webview scripts (browser, esm). Flags: --watch, --production.
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

// zod re-exports every locale as a namespace, which defeats tree-shaking; Judge Studio's messages
// are English, so bundle only `en` (about 250 KB less in each bundle).
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
  plugins: [zodEnglishOnly],
  define: { JUDGE_STUDIO_VERSION: JSON.stringify(pkg.version) },
};

const webviewDir = 'src/webview';
const webviewEntries = existsSync(webviewDir)
  ? readdirSync(webviewDir).filter((f) => /^[a-z][\w-]*\.ts$/.test(f) && !f.endsWith('.test.ts')).map((f) => path.join(webviewDir, f))
  : [];

const targets = [
  {
    ...common,
    entryPoints: { extension: 'src/extension/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  ...(webviewEntries.length
    ? [{
        ...common,
        entryPoints: webviewEntries,
        outdir: 'dist/webview',
        platform: 'browser',
        format: 'esm',
        target: 'es2022',
      }]
    : []),
].filter((t) => Object.values(t.entryPoints).every((e) => existsSync(e)));

if (watch) {
  for (const t of targets) {
    const ctx = await esbuild.context(t);
    await ctx.watch();
  }
  console.log('[esbuild] watching…');
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
