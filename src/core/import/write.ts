// Writing an imported template: front matter through the YAML library (so any string, trailing
// line breaks included, round-trips exactly) and the body as given. Names from the source are
// hostile: they become short plain file names, and the templates are written into --out only,
// never through a link, all of them or none (writeTemplates).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Document, visit } from 'yaml';

/** Longer names are cut and end in a hash of the whole name, so two long names stay distinct. */
export const MAX_METRIC_NAME = 64;
export const MAX_FILE_BASE = 100;

function shortened(name: string, max: number, source: string, join: string): string {
  if (name.length <= max) return name;
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 8);
  return `${name.slice(0, max - hash.length - join.length).replace(/[_.-]+$/, '')}${join}${hash}`;
}

/** A metric name (`[a-z][a-z0-9_]*`, at most MAX_METRIC_NAME characters) from any source name. */
export function metricName(source: string, fallback = 'imported'): string {
  let name = source.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').replace(/_+/g, '_');
  if (!name) name = fallback;
  if (!/^[a-z]/.test(name)) name = `${fallback}_${name}`;
  return shortened(name, MAX_METRIC_NAME, source, '_');
}

/** A safe file name (no directories, no leading dot, short enough for any file system) from a source name. */
export function fileName(source: string, fallback = 'imported'): string {
  const base = source.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').replace(/\.+$/, '');
  return `${shortened(base || fallback, MAX_FILE_BASE, source, '-')}.judge`;
}

/** Names made unique in order: `x`, `x_2`, `x_3`… (and likewise for files). */
export function uniquely<T extends { name: string; file: string }>(items: T[]): T[] {
  const names = new Set<string>();
  const files = new Set<string>();
  return items.map((item) => {
    let name = item.name;
    for (let n = 2; names.has(name); n++) name = `${item.name}_${n}`;
    let file = item.file;
    for (let n = 2; files.has(file.toLowerCase()); n++) file = item.file.replace(/\.judge$/, `-${n}.judge`);
    names.add(name);
    files.add(file.toLowerCase());
    return { ...item, name, file };
  });
}

export function templateText(frontMatter: Record<string, unknown>, body: string): string {
  const clean = Object.fromEntries(Object.entries(frontMatter).filter(([, v]) => v !== undefined));
  const doc = new Document(clean);
  // Lists and nested maps on one line (`inputs: [question, answer]`), as people write them.
  visit(doc, {
    Seq: (_, node) => void (node.flow = true),
    Map: (_, node, path) => {
      if (path.length > 1) node.flow = true;
    },
  });
  const yaml = doc.toString({ lineWidth: 0, flowCollectionPadding: false });
  return `---\n${yaml}---\n${body}\n`;
}

export interface TemplateFile {
  /** A plain file name inside the folder, never a path. */
  file: string;
  text: string;
}

export type WriteStatus = 'written' | 'exists';

export type WriteOutcome = { ok: true; status: WriteStatus[] } | { ok: false; message: string };

/**
 * Writes every template into `dir` or none of them: each name is checked first (a plain name of at
 * most 255 bytes, not a link, not a folder), then the texts go to a temporary folder inside `dir`
 * and are renamed into place. A rename replaces a name and never follows a link, so nothing lands
 * outside `dir`. An existing file is left alone (`exists`) unless `force`.
 */
export async function writeTemplates(dir: string, files: readonly TemplateFile[], o: { force: boolean }): Promise<WriteOutcome> {
  await fs.mkdir(dir, { recursive: true });
  const root = await fs.realpath(dir);
  const status: WriteStatus[] = [];
  for (const f of files) {
    if (f.file !== path.basename(f.file) || f.file === '.' || f.file === '..' || /[\\/\0]/.test(f.file)) return { ok: false, message: `"${f.file}" is not a plain file name; nothing was written` };
    if (Buffer.byteLength(f.file) > 255) return { ok: false, message: `"${f.file.slice(0, 40)}…" is longer than a file name may be; nothing was written` };
    const st = await fs.lstat(path.join(root, f.file)).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : Promise.reject(e)));
    if (st?.isSymbolicLink()) return { ok: false, message: `${path.join(dir, f.file)} is a symbolic link; import never writes through a link (remove it, or choose another --out); nothing was written` };
    if (st && !st.isFile()) return { ok: false, message: `${path.join(dir, f.file)} exists and is not a file; nothing was written` };
    status.push(st && !o.force ? 'exists' : 'written');
  }
  const tmp = await fs.mkdtemp(path.join(root, '.judge-import-'));
  try {
    // Everything is written before anything is put in place: a full disk leaves the folder as it was.
    for (const [i, f] of files.entries()) if (status[i] === 'written') await fs.writeFile(path.join(tmp, f.file), f.text, { flag: 'wx' });
    for (const [i, f] of files.entries()) if (status[i] === 'written') await fs.rename(path.join(tmp, f.file), path.join(root, f.file));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return { ok: true, status };
}
