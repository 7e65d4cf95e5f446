// The parsing rule of a verdict format in words: shown by the preview and the hover, and restated
// in the generated output instruction and the repair request.
import { REGEX_READ_LIMIT } from './regex';
import type { VerdictKind, VerdictSpec } from './types';
import { verdictField, type Scale } from './read';

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
  const format = spec?.format ?? 'json';
  const values = spec?.values ? ` mapped by ${Object.entries(spec.values).map(([k, v]) => `${k} → ${v}`).join(', ')}` : '';
  if (format === 'json' && (spec?.fields || spec?.values || spec?.gate || spec?.structured)) {
    const field = verdictField(spec, kind, labels !== undefined);
    const gate = spec.gate ? `, and it stands only when the reply's "${spec.gate.field}" is at least ${spec.gate.min} (else the score is ${spec.gate.otherwise})` : '';
    const one = labels ? ` (exactly one of ${labels.map((l) => JSON.stringify(l)).join(', ')})` : '';
    const why = spec.fields?.steps ? `its "${spec.fields.steps}" list of {description, conclusion} steps, one numbered line per step` : `its "${spec.fields?.justification ?? 'justification'}" field`;
    const asked = spec.structured ? ' Asked for with structured output: the JSON schema sent is this reply.' : '';
    return `JSON: the verdict is the reply's "${field}" field${one}${values}${gate}; the justification is ${why} (JSON bare, in a \`\`\`json fence, or the first object in prose).${asked}`;
  }
  if (format === 'json') {
    return kind === 'pointwise'
      ? 'JSON: the reply must be a JSON object with "justification" and an integer "score" (bare, in a ```json fence, or the first object in prose).'
      : 'JSON: the reply must be a JSON object with "justification", "winner" ("A", "B" or "TIE") and "confidence" (bare, in a ```json fence, or the first object in prose).';
  }
  if (format === 'tagged') {
    if (kind === 'pointwise') {
      const r = scale ?? { min: 1, max: 5 };
      return `Tagged: the score is the first [[N]] in the reply, else the first [N] (FastChat's rule); it must be an integer from ${r.min} to ${r.max}. The text before it is the justification.`;
    }
    return 'Tagged: [[A]] anywhere in the reply means A, else [[B]] means B, else [[C]] means a tie (FastChat\'s rule). The text before the verdict is the justification.';
  }
  if (format === 'prometheus') {
    const r = scale ?? { min: 1, max: 5 };
    const what = kind === 'pointwise' ? `an integer from ${r.min} to ${r.max} (absolute grading)` : 'A or B (relative grading)';
    return `Prometheus: the verdict is the first "[RESULT]" followed by ${what}; the text before it, without a leading "Feedback:", is the justification.`;
  }
  const group = kind === 'pointwise' ? 'score' : 'winner';
  const must = values ? `one of the mapped values${values}` : kind === 'pointwise' ? `an integer${scale ? ` from ${scale.min} to ${scale.max}` : ''}` : 'A, B, TIE or C (a tie), any case';
  return `Pattern: the first match of /${spec?.pattern ?? ''}/${spec?.flags ?? ''} in the last ${REGEX_READ_LIMIT.toLocaleString('en')} characters of the reply; its group "${group}" must be ${must}. The text before the match is the justification.`;
}

/** The instruction appended to a structured template with a text verdict and no Output format section. */
export function verdictInstruction(spec: VerdictSpec, kind: VerdictKind, scale?: Scale, labels?: readonly string[]): string {
  const r = scale ?? { min: 1, max: 5 };
  let how: string;
  if (spec.format === 'json') {
    const field = verdictField(spec, kind, labels !== undefined);
    const written = spec.values ? Object.keys(spec.values) : labels;
    const allowed = written ? ` (one of ${written.map((k) => JSON.stringify(k)).join(', ')})` : '';
    const why = spec.fields?.steps ? `"${spec.fields.steps}" field holds your reasoning as a list of steps, each {"description": "…", "conclusion": "…"},` : `"${spec.fields?.justification ?? 'justification'}" field holds your reasoning`;
    how = `Then reply with a JSON object whose ${why} and whose "${field}" field holds your verdict${allowed}.`;
  } else if (spec.format === 'tagged') {
    how =
      kind === 'pointwise'
        ? `After your explanation, give your rating as an integer from ${r.min} to ${r.max} in double brackets, for example: "Rating: [[${r.max}]]".`
        : 'After your explanation, give your verdict in double brackets: "[[A]]" if response A is better, "[[B]]" if response B is better, "[[C]]" for a tie.';
  } else if (spec.format === 'prometheus') {
    how =
      kind === 'pointwise'
        ? `Answer in this form: "Feedback: (your feedback on the criteria) [RESULT] (an integer from ${r.min} to ${r.max})".`
        : 'Answer in this form: "Feedback: (your feedback comparing the two responses) [RESULT] (A or B)".';
  } else {
    how = `After your explanation, give your verdict so that it matches the pattern /${spec.pattern ?? ''}/.`;
  }
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
