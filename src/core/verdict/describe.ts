// The parsing rule of a verdict format in words: shown by the preview and the hover, and restated
// in the generated output instruction and the repair request.
import { REGEX_READ_LIMIT } from './regex';
import type { VerdictKind, VerdictSpec } from './types';
import type { Scale } from './read';

export function verdictRule(spec: VerdictSpec | undefined, kind: VerdictKind, scale?: Scale): string {
  const format = spec?.format ?? 'json';
  const values = spec?.values ? ` mapped by ${Object.entries(spec.values).map(([k, v]) => `${k} → ${v}`).join(', ')}` : '';
  if (format === 'json' && (spec?.fields || spec?.values)) {
    const field = kind === 'pointwise' ? (spec.fields?.score ?? 'score') : (spec.fields?.winner ?? 'winner');
    return `JSON: the verdict is the reply's "${field}" field${values}; the justification is its "${spec.fields?.justification ?? 'justification'}" field (JSON bare, in a \`\`\`json fence, or the first object in prose).`;
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
  const group = kind === 'pointwise' ? 'score' : 'winner';
  const must = values ? `one of the mapped values${values}` : kind === 'pointwise' ? `an integer${scale ? ` from ${scale.min} to ${scale.max}` : ''}` : 'A, B, TIE or C (a tie), any case';
  return `Pattern: the first match of /${spec?.pattern ?? ''}/${spec?.flags ?? ''} in the last ${REGEX_READ_LIMIT.toLocaleString('en')} characters of the reply; its group "${group}" must be ${must}. The text before the match is the justification.`;
}

/** The instruction appended to a structured template with a text verdict and no Output format section. */
export function verdictInstruction(spec: VerdictSpec, kind: VerdictKind, scale?: Scale): string {
  const r = scale ?? { min: 1, max: 5 };
  let how: string;
  if (spec.format === 'json') {
    const field = kind === 'pointwise' ? (spec.fields?.score ?? 'score') : (spec.fields?.winner ?? 'winner');
    const allowed = spec.values ? ` (one of ${Object.keys(spec.values).map((k) => JSON.stringify(k)).join(', ')})` : '';
    how = `Then reply with a JSON object whose "${spec.fields?.justification ?? 'justification'}" field holds your reasoning and whose "${field}" field holds your verdict${allowed}.`;
  } else if (spec.format === 'tagged') {
    how =
      kind === 'pointwise'
        ? `After your explanation, give your rating as an integer from ${r.min} to ${r.max} in double brackets, for example: "Rating: [[${r.max}]]".`
        : 'After your explanation, give your verdict in double brackets: "[[A]]" if response A is better, "[[B]]" if response B is better, "[[C]]" for a tie.';
  } else {
    how = `After your explanation, give your verdict so that it matches the pattern /${spec.pattern ?? ''}/.`;
  }
  return ['# Output format', '', 'Write your explanation first.', how].join('\n');
}

/** The repair request for a reply whose verdict could not be read. */
export function verdictRepair(error: string, spec: VerdictSpec, kind: VerdictKind, scale?: Scale): string {
  return [
    `Your previous reply could not be used: ${error}.`,
    'Reply again: your explanation, then the verdict in exactly the declared format.',
    '',
    verdictInstruction(spec, kind, scale).replace(/^#[^\n]*\n+/, ''),
  ].join('\n');
}
