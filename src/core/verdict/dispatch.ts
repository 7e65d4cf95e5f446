// A template's verdict reader, by its declared format: each format's own entry in the registry.
import { VERDICT_FORMATS } from './formats/registry';
import type { Scale, TextVerdict, VerdictKind, VerdictSpec } from './types';
import { clip, label, score, winner } from './values';

/** A reader for one template: the pattern is compiled once. With `labels` (a categorical template) the verdict is one of them. */
export function verdictReader(spec: VerdictSpec, kind: VerdictKind, scale: Scale | undefined, labels?: readonly string[]): (reply: string) => TextVerdict {
  const range = scale ?? { min: 1, max: 5 };
  const categorical = kind === 'pointwise' && labels !== undefined && labels.length > 0;
  // Never coerces: a number outside the scale or a winner that is not A, B or a tie is an unreadable reply.
  const mapped = (text: string, justification: string): TextVerdict => {
    const value = spec.values ? spec.values[text.trim()] : text;
    if (value === undefined) return { ok: false, error: `the verdict "${clip(text)}" is not one of ${Object.keys(spec.values ?? {}).map((k) => JSON.stringify(k)).join(', ')}` };
    if (categorical) return label(String(value), labels, justification);
    return kind === 'pointwise' ? score(String(value), range, justification) : winner(String(value), justification);
  };
  return VERDICT_FORMATS[spec.format].reader({ spec, kind, range, categorical, mapped });
}

/** Every verdict text the format's reader finds in `text`, in order (the lint over a prompt's label lists). */
export function verdictTexts(spec: VerdictSpec, kind: VerdictKind, text: string): string[] {
  return VERDICT_FORMATS[spec.format].texts(spec, kind, text);
}
