// A promptfoo grader `provider` (on an assertion, a test's options or defaultTest.options) as the
// template's judge model: `openai:gpt-4o`, `openai:chat:gpt-4o`, `ollama:chat:llama3:8b`, or
// `{id, config: {temperature, max_tokens}}`. Only the model name and sampling settings carry over;
// where requests go (and with which key) is the run's endpoint, never a config's.

export interface CarriedModel {
  model: Record<string, unknown>;
  warnings: string[];
}

/** Provider ids whose remainder (after an optional API kind) is a model or deployment name. */
const PROVIDERS = new Set(['openai', 'azureopenai', 'azure', 'anthropic', 'ollama', 'vertex', 'google', 'mistral', 'groq', 'togetherai', 'openrouter', 'deepseek', 'perplexity', 'fireworks', 'bedrock', 'litellm', 'localai', 'vllm', 'llamacpp', 'huggingface', 'hf', 'xai', 'cohere', 'cerebras']);
const API_KINDS = new Set(['chat', 'completion', 'messages', 'responses', 'text']);

export function carriedModel(provider: unknown): CarriedModel {
  if (provider === undefined || provider === null) return { model: {}, warnings: [] };
  const obj = typeof provider === 'object' && !Array.isArray(provider) ? (provider as Record<string, unknown>) : undefined;
  // `{text: …, embedding: …}` names a provider per task; the text one grades.
  const inner = obj && obj.id === undefined && obj.text !== undefined ? obj.text : undefined;
  if (inner !== undefined) return carriedModel(inner);
  const id = typeof provider === 'string' ? provider : typeof obj?.id === 'string' ? obj.id : undefined;
  if (id === undefined) return { model: {}, warnings: [`grader provider ${JSON.stringify(provider).slice(0, 80)} names no provider id; the template names no model`] };
  const name = modelName(id);
  if (name === undefined) return { model: {}, warnings: [`grader provider "${id}" is not a model of a known chat API (a script, an HTTP or exec provider); the template names no model`] };
  const model: Record<string, unknown> = { name };
  const warnings = [`grader provider "${id}": the template's model is "${name}"; its endpoint is the one the run is given (--base-url, settings), not the provider's`];
  const config = obj && typeof obj.config === 'object' && obj.config !== null ? (obj.config as Record<string, unknown>) : undefined;
  if (config) {
    const carried: string[] = [];
    if (typeof config.temperature === 'number' && config.temperature >= 0 && config.temperature <= 2) {
      model.temperature = config.temperature;
      carried.push('temperature');
    }
    if (typeof config.max_tokens === 'number' && Number.isInteger(config.max_tokens) && config.max_tokens > 0) {
      model.max_tokens = config.max_tokens;
      carried.push('max_tokens');
    }
    const rest = Object.keys(config).filter((k) => !carried.includes(k));
    if (rest.length > 0) warnings.push(`grader provider "${id}": config ${rest.join(', ')} not carried (a template sets the model, temperature and max_tokens)`);
  }
  return { model, warnings };
}

/** The model in a provider id, e.g. `gpt-4o` in `openai:chat:gpt-4o`; undefined for non-model providers. */
export function modelName(id: string): string | undefined {
  const parts = id.split(':');
  const head = parts[0]?.toLowerCase() ?? '';
  if (!PROVIDERS.has(head) || parts.length < 2) return undefined;
  const rest = API_KINDS.has(parts[1] ?? '') && parts.length > 2 ? parts.slice(2) : parts.slice(1);
  const name = rest.join(':').trim();
  return name === '' ? undefined : name;
}
