// Lists an OpenAI-compatible endpoint's models (GET <base>/models) so "Configure Endpoint" can
// offer them in a pick list. Best effort: any failure means "type the model name instead".
import { originOf } from './origin';

export interface ListModelsOptions {
  baseUrl: string;
  apiKey?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export type ListModelsOutcome = { ok: true; ids: string[] } | { ok: false; error: string };

export function modelsUrl(baseUrl: string): string {
  return `${baseUrl.trim().replace(/\/+$/, '')}/models`;
}

/** Model ids from an OpenAI `{data: [{id}]}` list (Ollama, vLLM, LM Studio and llama.cpp answer the same), sorted. */
export function modelIds(json: unknown): string[] {
  const data = json && typeof json === 'object' ? (json as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) return [];
  const ids = data.map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined)).filter((id): id is string => typeof id === 'string' && id !== '');
  return [...new Set(ids)].sort((a, b) => a.localeCompare(b));
}

export async function listModels(o: ListModelsOptions): Promise<ListModelsOutcome> {
  const url = modelsUrl(o.baseUrl);
  const base = originOf(o.baseUrl);
  const target = originOf(url);
  // The key is the base URL's; the request must go to that same origin.
  if (!base.ok || !target.ok || base.origin !== target.origin) return { ok: false, error: base.ok ? 'the models URL leaves the endpoint origin' : base.error };
  const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
  if (o.apiKey !== undefined) headers.authorization = `Bearer ${o.apiKey}`;
  try {
    const response = await (o.fetch ?? fetch)(url, { headers, signal: AbortSignal.timeout(o.timeoutMs ?? 5_000) });
    if (!response.ok) return { ok: false, error: `GET ${url} answered ${response.status}` };
    const ids = modelIds(await response.json());
    return ids.length ? { ok: true, ids } : { ok: false, error: `GET ${url} listed no models` };
  } catch (e) {
    return { ok: false, error: `GET ${url} failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}
