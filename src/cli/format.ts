// Compiler-style lines (`file:line:col severity code message`) that terminals and problem matchers link.
import { countSeverities, plural, severityCounts } from '../core/counts';
import type { FileDiagnostic } from '../core/diagnostics';

export function formatDiagnostic(d: FileDiagnostic): string {
  return `${d.file}:${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}`;
}

export function summary(diags: FileDiagnostic[], files: number): string {
  const { error, warning } = countSeverities(diags);
  return `${plural(files, 'file')} checked: ${severityCounts({ error, warning })}`;
}
