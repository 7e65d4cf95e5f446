// The README a newcomer reads and the package the Marketplace takes: short, every link resolving
// (anchors included), pictures that exist, and the metadata vsce and the gallery need.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');

function markdownFiles(): string[] {
  const docs = (dir: string): string[] =>
    fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? docs(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : []));
  return ['README.md', ...docs('docs')];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fence = !fence;
    const m = !fence && /^#{1,6} (.*)$/.exec(line);
    if (m) out.add(m[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-'));
  }
  return out;
}

/** Relative link targets outside code: `[text](target)` and `![alt](target)`. */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((t) => !/^[a-z]+:/i.test(t));
}

describe('README and docs', () => {
  it('keep the README short enough to read in one sitting', () => {
    const lines = read('README.md').split('\n').length;
    assert.ok(lines <= 250, `README.md has ${lines} lines`);
  });

  it('has links that all resolve, anchors included', () => {
    const broken: string[] = [];
    for (const file of markdownFiles()) {
      for (const target of links(read(file))) {
        const [rel, anchor] = target.split('#') as [string, string | undefined];
        const resolved = rel === '' ? path.join(root, file) : path.resolve(path.dirname(path.join(root, file)), decodeURI(rel));
        if (!fs.existsSync(resolved)) {
          broken.push(`${file}: ${target}`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('shows PNG pictures only, which the Marketplace accepts', () => {
    const pictures = [...read('README.md').matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    assert.ok(pictures.length >= 7, `the tour has ${pictures.length} pictures`);
    assert.deepEqual(pictures.filter((p) => !p.endsWith('.png') || /^http:/.test(p)), []);
  });
});

describe('Marketplace metadata', () => {
  const pkg = JSON.parse(read('package.json')) as Record<string, unknown> & { contributes: { commands: { command: string }[]; walkthroughs: { steps: { id: string; completionEvents?: string[] }[] }[] } };

  it('names the repository, bugs, homepage, a gallery banner and keywords vsce accepts', () => {
    const repo = (pkg.repository as { url?: string } | undefined)?.url ?? '';
    assert.match(repo, /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/, 'a GitHub repository lets vsce make the README links absolute');
    assert.match((pkg.bugs as { url?: string }).url ?? '', /^https:\/\//);
    assert.match(String(pkg.homepage), /^https:\/\//);
    assert.ok((pkg.galleryBanner as { color?: string }).color, 'galleryBanner.color');
    const keywords = pkg.keywords as string[];
    assert.ok(keywords.length >= 5 && keywords.length <= 30, `${keywords.length} keywords (vsce allows 30)`);
  });

  it('has a PNG icon of at least 128 × 128 that ships in the VSIX', () => {
    const icon = String(pkg.icon);
    const png = fs.readFileSync(path.join(root, icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.ok(width >= 128 && height >= 128 && width === height, `${width} × ${height}`);
    assert.ok(read('.vscodeignore').split('\n').includes(`!${icon}`), '.vscodeignore lets the icon in');
  });

  it('keeps sources, tests, fixtures and out/ out of the VSIX: .vscodeignore is a whitelist', () => {
    const lines = read('.vscodeignore').split('\n').filter((l) => l && !l.startsWith('#'));
    assert.equal(lines[0], '**');
    assert.deepEqual(lines.filter((l) => /^!(src|test|out|bench|scripts|docs)\b/.test(l)), []);
  });

  it('ticks every walkthrough step when its action runs, by commands that exist', () => {
    const commands = new Set(pkg.contributes.commands.map((c) => c.command));
    for (const step of pkg.contributes.walkthroughs.flatMap((w) => w.steps)) {
      assert.ok(step.completionEvents?.length, `step ${step.id} has completionEvents`);
      for (const e of step.completionEvents ?? []) {
        const cmd = /^onCommand:(.+)$/.exec(e)?.[1];
        if (cmd) assert.ok(commands.has(cmd), `step ${step.id}: ${cmd} is a contributed command`);
      }
    }
  });
});

/** Every `judge-studio …` command in a shell block of the README and docs, continuation lines joined. */
function cliExamples(): { file: string; args: string[] }[] {
  const out: { file: string; args: string[] }[] = [];
  for (const file of markdownFiles()) {
    for (const block of read(file).matchAll(/```(?:sh|bash|shell|console)\n([\s\S]*?)```/g)) {
      const joined = block[1]!.replace(/\\\n/g, ' ');
      for (const line of joined.split('\n')) {
        const m = /(?:^|\s)(?:npx )?judge-studio ([^#|&;>]*)/.exec(line.replace(/^\$ /, ''));
        if (!m) continue;
        const args = m[1]!.trim().split(/\s+/).filter(Boolean).map((a) => a.replace(/^(['"])(.*)\1$/, '$2'));
        if (args.length && !args[0]!.startsWith('<')) out.push({ file, args });
      }
    }
  }
  return out;
}

/** The options a usage line names outside brackets (`--data <file>` in `render <template> --data <file> [--row N]`). */
function requiredOptions(usage: string): string[] {
  let depth = 0;
  let plain = '';
  for (const c of usage) {
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (depth === 0) plain += c;
  }
  return [...plain.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]);
}

describe('CLI examples in the README and docs', () => {
  it('parse with the options of their command and name the options its usage requires', async () => {
    const { SPECS } = await import('../../src/cli/options');
    const { parseArgs } = await import('node:util');
    const examples = cliExamples();
    assert.ok(examples.length > 20, `found ${examples.length} examples`);
    for (const { file, args } of examples) {
      const [name, ...rest] = args;
      if (name === '--help' || name === '--version' || rest.includes('--help')) continue;
      const spec = SPECS.find((s) => s.name === name);
      assert.ok(spec, `${file}: judge-studio ${args.join(' ')}: "${name}" is a command`);
      assert.doesNotThrow(() => parseArgs({ args: rest, options: spec.options as NonNullable<Parameters<typeof parseArgs>[0]>['options'], allowPositionals: true, strict: true }), `${file}: judge-studio ${args.join(' ')}`);
      // Usage lines that start with spaces continue the one before.
      const usages = spec.usage.reduce<string[]>((all, u) => (u.startsWith(' ') && all.length ? [...all.slice(0, -1), `${all[all.length - 1]} ${u}`] : [...all, u]), []);
      const fits = usages.some((u) => requiredOptions(u).every((o) => rest.some((a) => a === o || a.startsWith(`${o}=`))));
      assert.ok(fits, `${file}: judge-studio ${args.join(' ')} lacks an option its usage requires (${usages.join(' | ')})`);
    }
  });
});
