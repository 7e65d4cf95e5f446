// The one place a template becomes the settings its requests are sent with: model, sampling,
// structured output and `scoring: expected`. Every front end (run, batch, probe, align, the
// editor) calls this; a second copy is how batch lost `expectedScale`.
import type { TemplateConfig } from '../../template/types';
import type { StructuredOutputMode } from '../transport/types';

export interface JudgeSettings {
  model: string;
  temperature?: number;
  maxTokens?: number;
  structured: StructuredOutputMode;
  /** Name of the JSON schema sent as structured output (the metric name). */
  schemaName: string;
  /** `scoring: expected`: ask for logprobs and weigh the score token over this scale. */
  expectedScale?: { min: number; max: number };
}

/** The settings for judging with `config` on `model`, asking for `structured` output. */
export function judgeSettings(config: TemplateConfig, model: string, structured: StructuredOutputMode): JudgeSettings {
  const m = config.model;
  return {
    model,
    structured,
    schemaName: config.name,
    ...(m.temperature !== undefined ? { temperature: m.temperature } : {}),
    ...(m.max_tokens !== undefined ? { maxTokens: m.max_tokens } : {}),
    ...(m.scoring === 'expected' && config.scale ? { expectedScale: { min: config.scale.min, max: config.scale.max } } : {}),
  };
}
