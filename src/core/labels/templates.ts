// Finding the template that produced a metric, for results files written before `_key` existed:
// their keys are computed from the template's input fields. A workspace may hold many templates;
// only those whose front matter names the metric count.
import { readdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { ParsedTemplate } from '../template/types';

const SKIP_DIRS = new Set(['node_modules', '.git', 'out', 'dist']);

export interface FoundTemplate {
  file: string;
  template: ParsedTemplate;
}

/** `.judge` files under `root` (depth ≤ 6, at most `limit` files looked at) whose `name` is `metric`. */
export async function templatesForMetric(root: string, metric: string, limit = 2000): Promise<FoundTemplate[]> {
  const found: FoundTemplate[] = [];
  let seen = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 6 || seen >= limit) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walk(full, depth + 1);
      } else if (e.isFile() && e.name.endsWith('.judge') && seen++ < limit) {
        const template = await templateIfNamed(full, metric);
        if (template) found.push({ file: full, template });
      }
    }
  };
  await walk(root, 0);
  return found;
}

/** The parsed template when its front matter names `metric`. */
export async function templateIfNamed(file: string, metric: string): Promise<ParsedTemplate | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  // A cheap test first: parsing every template in a large workspace is not free.
  if (!text.includes(metric)) return undefined;
  // Loaded only now: a calibrate whose workspace holds no such template never compiles the parser.
  const { parseTemplate } = await import('../template/parse');
  const template = parseTemplate(text);
  return template.config?.name === metric ? template : undefined;
}
