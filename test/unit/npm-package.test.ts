// The CLI as an npm package: `npm pack` of a copy of the sources (as a fresh clone has them, no
// dist/) builds the minified CLI and packs it alone; the tarball installs into an empty folder
// with no registry (it declares no dependencies: they are inside dist/cli.js) and runs there.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDir } from '../support/judgeFixtures';

const ROOT = path.resolve(__dirname, '../../..');
const SOURCES = ['src', 'bin', 'package.json', 'package-lock.json', '.npmignore', 'esbuild.mjs', 'README.md', 'LICENSE', 'CHANGELOG.md'];
const PACKED = ['CHANGELOG.md', 'LICENSE', 'README.md', 'bin/judge-studio.js', 'dist/cli.js', 'package.json'];

/** npm as a user runs it: none of the npm_* variables of an `npm run` this test may be under. */
function npm(args: string[], cwd: string): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  const windows = process.platform === 'win32';
  const r = spawnSync(windows ? 'npm.cmd' : 'npm', args, { cwd, env, encoding: 'utf8', timeout: 90_000, shell: windows });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

describe('the CLI as an npm package', function () {
  this.timeout(180_000);
  let tarball = '';
  let packed: PackResult;

  before(function () {
    const stage = tempDir();
    for (const s of SOURCES) fs.cpSync(path.join(ROOT, s), path.join(stage, s), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules')), path.join(stage, 'node_modules'), 'dir');
    const out = tempDir();
    const r = npm(['pack', '--json', '--pack-destination', out], stage);
    assert.equal(r.status, 0, `npm pack failed:\n${r.stderr}`);
    packed = (JSON.parse(r.stdout.slice(r.stdout.indexOf('['))) as PackResult[])[0]!;
    tarball = path.join(out, packed.filename);
  });

  it('packs the CLI alone, well under 1 MB, with no install script and nothing to install', () => {
    assert.deepEqual(packed.files.map((f) => f.path).sort(), PACKED);
    assert.ok(packed.size < 600_000, `the tarball is ${packed.size} bytes`);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; dependencies?: object; bin: Record<string, string>; files?: string[] };
    for (const hook of ['preinstall', 'install', 'postinstall']) assert.ok(!(hook in pkg.scripts), `package.json has a "${hook}" script`);
    assert.equal(pkg.dependencies, undefined, 'the bundled libraries are devDependencies');
    assert.ok(!('files' in pkg), 'no "files": vsce refuses it beside .vscodeignore; .npmignore chooses the npm package');
    assert.deepEqual(pkg.bin, { 'judge-studio': './bin/judge-studio.js' });
  });

  it('installs into an empty folder with no registry and runs `--version` and `validate` there', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "empty", "private": true }\n');
    const install = npm(['install', '--offline', '--no-audit', '--no-fund', tarball], dir);
    assert.equal(install.status, 0, `npm install failed:\n${install.stderr}`);
    assert.deepEqual(fs.readdirSync(path.join(dir, 'node_modules')).filter((n) => !n.startsWith('.')), ['judge-studio']);
    assert.ok(!fs.existsSync(path.join(dir, 'node_modules/judge-studio/src')), 'no sources');
    const version = npm(['exec', '--offline', '--', 'judge-studio', '--version'], dir);
    const { version: expected } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(version.stdout.trim(), expected, version.stderr);
    fs.copyFileSync(path.join(ROOT, 'examples/helpfulness.judge'), path.join(dir, 'helpfulness.judge'));
    const validate = npm(['exec', '--offline', '--', 'judge-studio', 'validate', 'helpfulness.judge'], dir);
    assert.equal(validate.status, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout + validate.stderr, /1 file checked: no errors or warnings/);
    const broken = path.join(dir, 'broken.judge');
    fs.writeFileSync(broken, '---\nname: x\n---\n{{#if}}\n');
    assert.equal(npm(['exec', '--offline', '--', 'judge-studio', 'validate', 'broken.judge'], dir).status, 1, 'the packed CLI finds errors too');
  });
});
