// The parsing rule of a verdict format in words: shown by the preview and the hover, and restated
// in the generated output instruction and the repair request.
import { VERDICT_FORMATS } from './formats/registry';
import type { Scale, VerdictKind, VerdictSpec } from './types';

export function verdictRule(spec: VerdictSpec | undefined, kind: VerdictKind, scale?: Scale, labels?: readonly string[], passing?: readonly string[]): string {
  const rule = textRule(spec, kind, scale, labels) + (labels && passing ? passingRule(passing) : '');
  return spec?.match === 'last' || spec?.match === 'unique' ? `${rule} ${matchRule(spec.match)}` : rule;
}

/** A categorical template's passing labels, said after its reply rule. */
function passingRule(passing: readonly string[]): string {
  return ` Passing labels: ${passing.map((l) => JSON.stringify(l)).join(', ')}.`;
}

/** What `verdict.match: last | unique` changes, said after the format's rule. */
function matchRule(match: 'last' | 'unique'): string {
  return match === 'last'
    ? 'Match rule `last`: when the reply writes several verdicts, the last one counts (the text before it is the justification).'
    : 'Match rule `unique`: every verdict the reply writes must be the same, else the reply has no verdict (error kind `ambiguous-verdict` after one repair request).';
}

function textRule(spec: VerdictSpec | undefined, kind: VerdictKind, scale?: Scale, labels?: readonly string[]): string {
  const values = spec?.values ? ` mapped by ${Object.entries(spec.values).map(([k, v]) => `${k} → ${v}`).join(', ')}` : '';
  return VERDICT_FORMATS[spec?.format ?? 'json'].rule({ spec, kind, scale, labels, values });
}

/** The instruction appended to a structured template with a text verdict and no Output format section. */
export function verdictInstruction(spec: VerdictSpec, kind: VerdictKind, scale?: Scale, labels?: readonly string[]): string {
  const how = VERDICT_FORMATS[spec.format].instruction(spec, kind, scale ?? { min: 1, max: 5 }, labels);
  const once = spec.match === 'unique' ? ['Write the verdict once, only at the end.'] : [];
  return ['# Output format', '', 'Write your explanation first.', how, ...once].join('\n');
}

/** The repair request for a reply whose verdict could not be read. */
export function verdictRepair(error: string, spec: VerdictSpec, kind: VerdictKind, scale?: Scale, labels?: readonly string[]): string {
  return [
    `Your previous reply could not be used: ${error}.`,
    'Reply again: your explanation, then the verdict in exactly the declared format.',
    '',
    verdictInstruction(spec, kind, scale, labels).replace(/^#[^\n]*\n+/, ''),
  ].join('\n');
}

/** A categorical template's reply rule, for the preview and the hover. */
export function labelRule(labels: readonly string[], passing: readonly string[] | undefined): string {
  const list = (xs: readonly string[]) => xs.map((l) => JSON.stringify(l)).join(', ');
  return `JSON: the reply's "label" must be exactly one of ${list(labels)}; its "justification" is the reasoning.${passing ? passingRule(passing) : ''}`;
}

/** An imported template's variable mapping, e.g. `{{item.question}} → {{question}}`. */
export function sourceRule(source: { format: string; name?: string; fields?: Record<string, string> }): string {
  const fields = Object.entries(source.fields ?? {}).map(([from, to]) => `{{${from}}} → {{${to}}}`);
  return `Imported from ${source.format}${source.name ? ` (${source.name})` : ''}${fields.length ? `: ${fields.join(', ')}` : ''}.`;
}
