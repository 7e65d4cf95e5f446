// One validation per parsed template version, shared by diagnostics, quick fixes and the preview.
// Studio caches the ParsedTemplate per document version, so its identity is the cache key; a
// WeakMap lets old versions go with their parse.
import type { Diagnostic } from '../../core/diagnostics';
import { validateTemplate, type ParsedTemplate } from '../../core/template';

const validated = new WeakMap<ParsedTemplate, Diagnostic[]>();

export function validationOf(template: ParsedTemplate): Diagnostic[] {
  let diagnostics = validated.get(template);
  if (!diagnostics) {
    diagnostics = validateTemplate(template);
    validated.set(template, diagnostics);
  }
  return diagnostics;
}
