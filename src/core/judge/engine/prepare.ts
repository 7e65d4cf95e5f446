// A template checked once and ready to judge rows: its config, metric name, strategy and a
// renderer per pass order. Templates with validation errors never reach the judge.
import type { Diagnostic } from '../../diagnostics';
import type { DatasetRecord } from '../../dataset/types';
import { parseTemplate } from '../../template/parse';
import { renderTemplate } from '../../template/render';
import type { RenderOutcome } from '../../template/render';
import type { ParsedTemplate, TemplateConfig } from '../../template/types';
import { validateTemplate } from '../../template/validate';
import { keyFields, templateHash } from '../../results/keys';
import { strategyFor } from '../strategies/strategy';
import type { JudgeStrategy, PassOrder } from '../strategies/strategy';

export interface PreparedJudge {
  template: ParsedTemplate;
  config: TemplateConfig;
  /** Prefix of the result columns, e.g. `helpfulness` in `helpfulness/score`. */
  metric: string;
  strategy: JudgeStrategy;
  /** `m/template_hash`: which version of the template judged a row. */
  templateHash: string;
  /** The fields whose values make a row's `_key`. */
  keyFields: readonly string[];
  render(record: DatasetRecord, order: PassOrder, row?: number): RenderOutcome;
}

export type PrepareOutcome =
  | { ok: true; judge: PreparedJudge; warnings: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] };

export function prepareJudge(text: string, pickStrategy: (config: TemplateConfig) => JudgeStrategy = strategyFor): PrepareOutcome {
  const template = parseTemplate(text);
  const diagnostics = validateTemplate(template);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || !template.config) return { ok: false, diagnostics };
  return {
    ok: true,
    warnings: diagnostics.filter((d) => d.severity !== 'error'),
    judge: judgeFromTemplate(template, pickStrategy),
  };
}

/** For a template already parsed and validated without errors (throws when its config is invalid). */
export function judgeFromTemplate(
  template: ParsedTemplate,
  pickStrategy: (config: TemplateConfig) => JudgeStrategy = strategyFor,
): PreparedJudge {
  const config = template.config;
  if (!config) throw new Error('the template has front-matter errors; validate it before judging');
  return {
    template,
    config,
    metric: config.name,
    strategy: pickStrategy(config),
    templateHash: templateHash(template.text),
    keyFields: keyFields(template),
    render: (record, order, row) => renderTemplate(template, record, { swap: order === 'BA', ...(row !== undefined ? { row } : {}) }),
  };
}
