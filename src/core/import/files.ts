// Files a config refers to (promptfoo's `file://` tests, test files, rubric files), read relative
// to the file that names them and never outside the config's folder, unless the user allowed a
// folder by name (`--allow DIR`). Symbolic links are resolved before the check, so a link inside
// the folder cannot lead out of it. Globs are the simple kind promptfoo users write: `*` and `?`
// in the last path segment.
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import * as path from 'node:path';

/** Files larger than this are not read (a tests file is text; a 50 MB one is a mistake). */
export const MAX_REFERENCED_BYTES = 20 * 1024 * 1024;
/** A glob matches at most this many files. */
export const MAX_GLOB_FILES = 500;
/** All referenced files of one import together: past this, the rest are not read. */
export const MAX_TOTAL_BYTES = 64 * 1024 * 1024;

export type ReadOutcome = { ok: true; file: string; text: string } | { ok: false; error: string };

export interface ReferencedFiles {
  /** Absolute paths a reference names (a glob may name several), or why it names none. */
  resolve(ref: string, from: string): Promise<{ ok: true; files: string[] } | { ok: false; error: string }>;
  read(file: string): Promise<ReadOutcome>;
  /** How a file is named in messages: relative to the config's folder. */
  show(file: string): string;
}

/** A reader confined to `root` (the config's folder) and the folders in `allow`. */
export function confinedFiles(root: string, allow: readonly string[] = []): ReferencedFiles {
  const roots = [root, ...allow].map((r) => path.resolve(r));
  let real: Promise<string[]> | undefined;
  const realRoots = () => (real ??= Promise.all(roots.map((r) => realpath(r).catch(() => r))));
  const inside = (file: string, dirs: readonly string[]) => dirs.some((d) => file === d || file.startsWith(d.endsWith(path.sep) ? d : d + path.sep));
  const show = (file: string) => {
    const rel = path.relative(roots[0]!, file);
    return rel === '' ? '.' : rel.startsWith('..') ? file : rel;
  };
  const refuse = (file: string) => ({
    ok: false as const,
    error: `${show(file)} is outside the config's folder; Judge Studio reads referenced files only inside it (pass --allow ${path.dirname(file)} to read it)`,
  });
  let total = 0;

  return {
    show,
    async resolve(ref, from) {
      const target = path.resolve(from, ref.replace(/^file:\/\//, ''));
      const dir = path.dirname(target);
      const base = path.basename(target);
      if (/[*?[\]{}]/.test(dir)) return { ok: false, error: `${ref}: only the file name may hold wildcards (* and ?)` };
      if (!/[*?]/.test(base)) return { ok: true, files: [target] };
      if (/[[\]{}]/.test(base)) return { ok: false, error: `${ref}: only * and ? wildcards are supported` };
      // A folder outside is never listed: its names are nobody's business (file:///etc/* listed /etc).
      const realDir = await realpath(dir).catch(() => dir);
      if (!inside(dir, roots) || !inside(realDir, await realRoots())) {
        return { ok: false, error: `${ref}: ${show(dir)} is outside the config's folder, so it is not listed; Judge Studio reads referenced files only inside it (pass --allow ${dir} to read it)` };
      }
      const pattern = new RegExp(`^${base.replace(/[.+^$()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (e) {
        return { ok: false, error: `${ref}: cannot list ${show(dir)} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
      }
      const files = names.filter((n) => pattern.test(n)).sort().map((n) => path.join(dir, n));
      if (files.length === 0) return { ok: false, error: `${ref}: no file matches` };
      if (files.length > MAX_GLOB_FILES) return { ok: false, error: `${ref}: matches ${files.length} files, more than ${MAX_GLOB_FILES}` };
      return { ok: true, files };
    },
    async read(file) {
      if (!inside(path.resolve(file), roots)) return refuse(file);
      let resolved: string;
      try {
        resolved = await realpath(file);
      } catch (e) {
        return { ok: false, error: `${show(file)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
      }
      if (!inside(resolved, await realRoots())) return refuse(resolved);
      try {
        const info = await stat(resolved);
        if (!info.isFile()) return { ok: false, error: `${show(file)} is not a file` };
        if (info.size > MAX_REFERENCED_BYTES) return { ok: false, error: `${show(file)} is ${info.size} bytes, more than the ${MAX_REFERENCED_BYTES} read for a referenced file` };
        if ((total += info.size) > MAX_TOTAL_BYTES) return { ok: false, error: `${show(file)} is not read: the files this config names pass ${MAX_TOTAL_BYTES} bytes together` };
        return { ok: true, file: resolved, text: await readFile(resolved, 'utf8') };
      } catch (e) {
        return { ok: false, error: `${show(file)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
      }
    },
  };
}
