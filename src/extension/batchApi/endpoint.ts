// The endpoint a provider batch goes to: the configured OpenAI-compatible endpoint with the key
// stored for its origin. A VS Code language model has no Batch API, so it is refused with a reason.
import type { OpenAIClientOptions } from '../../core/judge/transport/openaiClient';
import { batchApiFor, type BatchApi } from '../../core/batch/api';
import { originOf } from '../providers/model/origin';
import { chooseModel, providerPlan, SECTION } from '../providers/model/settings';
import { readSettings } from '../providers/resolve';
import { ApiKeys } from '../providers/secrets';
import type { Studio } from '../studio';

export type BatchEndpoint =
  | { ok: true; api: BatchApi; options: OpenAIClientOptions; model: string | undefined; structured: 'json_schema' | 'json_object' | 'none' }
  | { ok: false; message: string };

export async function batchEndpoint(studio: Studio, baseURL?: string, templateModel?: string): Promise<BatchEndpoint> {
  const settings = readSettings();
  const url = baseURL ?? settings.baseUrl;
  if (baseURL === undefined && providerPlan(settings) !== 'openai-compatible') {
    return {
      ok: false,
      message: `the Batch API needs an OpenAI or Azure OpenAI endpoint: set ${SECTION}.endpoint.baseUrl (a VS Code language model has no Batch API)`,
    };
  }
  const origin = originOf(url);
  if (!origin.ok) return { ok: false, message: `${SECTION}.endpoint.baseUrl: ${origin.error}` };
  const lookup = await new ApiKeys(studio.context).forBaseUrl(url);
  const options: OpenAIClientOptions = {
    baseURL: url,
    timeoutMs: 300_000,
    headers: settings.headers,
    ...(lookup.key !== undefined ? { apiKey: lookup.key } : {}),
  };
  return { ok: true, api: batchApiFor(options), options, model: chooseModel(settings, templateModel), structured: settings.structured };
}
