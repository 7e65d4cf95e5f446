// Writing an imported template: front matter through the YAML library (so any string, trailing
// line breaks included, round-trips exactly) and the body as given.
import { Document, visit } from 'yaml';

/** A metric name (`[a-z][a-z0-9_]*`) from any source name. */
export function metricName(source: string, fallback = 'imported'): string {
  let name = source.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').replace(/_+/g, '_');
  if (!name) name = fallback;
  if (!/^[a-z]/.test(name)) name = `${fallback}_${name}`;
  return name;
}

/** A safe file name (no directories, no leading dot) from a source name. */
export function fileName(source: string, fallback = 'imported'): string {
  const base = source.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').replace(/\.+$/, '');
  return `${base || fallback}.judge`;
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
