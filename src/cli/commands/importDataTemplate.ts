// The template named by `import-data --template T`: its metric, kind, the fields its `_key` is made
// of, and the fields it reads (to warn when the benchmark's rows do not have them).
import { readTemplateText } from '../template';
import { keyFields as templateKeyFields } from '../../core/results';
import { parseTemplate, validateTemplate } from '../../core/template';
import { UsageError, type CliIO } from '../io';

export interface NamedTemplate {
  metric: string;
  kind: 'pointwise' | 'pairwise';
  keyFields: string[];
  reads: string[];
}

export async function keyFields(io: CliIO, file: string): Promise<NamedTemplate> {
  const text = await readTemplateText(io, file);
  const t = parseTemplate(text);
  const errors = validateTemplate(t).filter((d) => d.severity === 'error');
  if (!t.config || errors.length > 0) throw new UsageError(`${file}: the template has errors (${errors[0]?.message ?? 'invalid front matter'}); fix them first (judge-studio validate ${file})`);
  const reads = [...new Set(t.placeholders.filter((p) => !p.inBlock && p.head !== '').map((p) => p.head))];
  return { metric: t.config.name, kind: t.config.kind, keyFields: templateKeyFields(t), reads };
}

/** Fields the template reads that no row has. */
export function usedFieldsOf(reads: readonly string[], rows: readonly Record<string, unknown>[]): string[] {
  const first = rows[0];
  if (!first) return [];
  return reads.filter((f) => !Object.hasOwn(first, f));
}
