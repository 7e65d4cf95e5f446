// Which of the calibration view's optional sections a report has content for. Pure (no DOM), so
// the rule "no heading without anything under it" is unit-tested in node.
import type { CalibrationView } from '../../protocol/calibrate';

export type OptionalSection = 'pass-fail' | 'bias-diagnostics';

/** The optional sections to draw, in page order: pass/fail with passing labels, bias diagnostics when the kind has any. */
export function optionalSections(v: CalibrationView): OptionalSection[] {
  const out: OptionalSection[] = [];
  if (v.passFail) out.push('pass-fail');
  if (v.bias.length > 0) out.push('bias-diagnostics');
  return out;
}
