// The one follow-up sent with --reask-on-violation: each broken rule restated, then what the reply
// did wrong, so the judge can fix its own verdict instead of guessing what was wrong.
import type { TemplateConfig } from '../../../template/types';
import { checkRules, ruleText } from './rules';
import { dimensionalSpec, RULE_IDS, type DimensionalReply, type RuleViolation } from './spec';
import { mapBack } from './swap';

/**
 * The follow-up user message for the violations of one reply, grouped by rule in rule order.
 * Quote the violations of the reply as the judge wrote it (for pass 2, before `mapBack`), so that
 * A and B mean what the judge saw. Returns '' when there is nothing to fix.
 */
export function violationFollowUp(violations: RuleViolation[], config: TemplateConfig): string {
  if (violations.length === 0) return '';
  const spec = dimensionalSpec(config);
  const blocks = RULE_IDS.filter((id) => violations.some((v) => v.rule === id)).map((id) =>
    [
      `Rule ${ruleText(id, spec)}`,
      ...violations.filter((v) => v.rule === id).map((v) => `- Your reply: ${v.message}.`),
    ].join('\n'),
  );
  return [
    'Your reply breaks the consistency rules below.',
    '',
    blocks.join('\n\n'),
    '',
    'Re-examine the responses and reply again with the complete JSON object, corrected so that every rule holds,',
    'with the same fields in the same order and nothing else. Where two answers contradict each other,',
    'change the one (a winner, a degree or a ranking) that your reasoning supports least.',
  ].join('\n');
}

export interface ReviewedReply {
  /** The reply in the dataset's labels (pass 2 mapped back). */
  reply: DimensionalReply;
  /** Violations in the dataset's labels, for `m/rule_violations`. */
  violations: RuleViolation[];
  /** The follow-up in the judge's own labels, or null when every rule holds. */
  followUp: string | null;
}

/**
 * One parsed reply, as the judge wrote it, checked and mapped back in one step: the engine gets the
 * follow-up in the labels the judge saw and the report in the labels of the dataset.
 */
export function reviewReply(raw: DimensionalReply, config: TemplateConfig, pass: 1 | 2): ReviewedReply {
  const asSeen = checkRules(raw, config, pass);
  const reply = pass === 2 ? mapBack(raw) : raw;
  return {
    reply,
    violations: pass === 2 ? checkRules(reply, config, pass) : asSeen,
    followUp: asSeen.length > 0 ? violationFollowUp(asSeen, config) : null,
  };
}
