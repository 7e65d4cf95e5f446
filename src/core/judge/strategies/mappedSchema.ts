// The JSON schema of a `json` verdict with renamed fields and `structured: true`: the template's own
// reply schema (score, winner or label, and the justification) under the names the reply uses, with
// the reasoning as a list of `{description, conclusion}` steps where `fields.steps` names it
// (OpenAI's model graders). Derived from the same schema the plain JSON reply uses, so the two agree.
import type { TemplateConfig } from '../../template/types';
import type { VerdictSpec } from '../../verdict';
import { isCategorical } from './categoricalSchema';
import { replyJsonSchema } from './replySchema';

type Props = Record<string, Record<string, unknown>>;

const STEP = {
  type: 'object',
  properties: {
    description: { type: 'string', description: 'What this step checks.' },
    conclusion: { type: 'string', description: 'What the step found.' },
  },
  required: ['description', 'conclusion'],
  additionalProperties: false,
};

export function mappedJsonSchema(config: TemplateConfig, spec: VerdictSpec): Record<string, unknown> {
  const base = replyJsonSchema({ ...config, verdict: undefined } as TemplateConfig);
  const props = (base.properties ?? {}) as Props;
  const verdictKey = isCategorical(config) ? 'label' : config.kind === 'pointwise' ? 'score' : 'winner';
  const fields = spec.fields ?? {};
  const rename: Record<string, string> = { [verdictKey]: fields[verdictKey as 'score' | 'winner' | 'label'] ?? verdictKey };
  const out: Props = {};
  // Reasoning first, as in every reply schema: the steps take the justification's place.
  for (const [key, p] of Object.entries(props)) {
    if (key === 'justification' && fields.steps) out[fields.steps] = { type: 'array', description: 'Your reasoning, step by step, written before the verdict.', items: STEP };
    else out[key === 'justification' ? (fields.justification ?? key) : (rename[key] ?? key)] = p;
  }
  return { ...base, properties: out, required: Object.keys(out), additionalProperties: false };
}
