// API keys are bound to an endpoint's origin (scheme, host and port): the key stored for
// https://api.example.com is looked up only when the configured base URL has that origin, so a
// changed base URL can never carry a key to a server it was not stored for. No `vscode` here.
import { credentialsElsewhere, isCredentialParam } from '../../../core/judge/transport/endpoint';

/** Secret-storage names are `judgeStudio.apiKey:<origin>`. */
export const SECRET_PREFIX = 'judgeStudio.apiKey:';

/** The one origin for which `OPENAI_API_KEY` from the environment is used as a fallback. */
export const OPENAI_ORIGIN = 'https://api.openai.com';
export const OPENAI_ENV = 'OPENAI_API_KEY';

export type OriginOutcome = { ok: true; origin: string } | { ok: false; error: string };

/** The normalised origin of an http(s) URL (lower-case host, default port dropped), or why not. */
export function originOf(url: string): OriginOutcome {
  const text = url.trim();
  if (text === '') return { ok: false, error: 'no URL given' };
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, error: `"${text}" is not a URL (expected e.g. http://127.0.0.1:11434/v1)` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, error: `"${text}" is not an http or https URL` };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // Credentials in a URL end up in logs and settings sync; keys belong in secret storage.
    return { ok: false, error: 'the URL must not contain a user name or password: store the key with "Judge Studio: Set API Key"' };
  }
  const params = [...new Set([...parsed.searchParams.keys()].filter(isCredentialParam))];
  if (params.length > 0) {
    return { ok: false, error: `the URL carries a credential in its query (${params.join(', ')}): remove it and store the key with "Judge Studio: Set API Key"` };
  }
  const elsewhere = credentialsElsewhere(parsed);
  if (elsewhere !== undefined) return { ok: false, error: `the URL carries ${elsewhere}, where a credential would end up in logs and settings sync: remove it and store the key with "Judge Studio: Set API Key"` };
  return { ok: true, origin: parsed.origin };
}

export function secretName(origin: string): string {
  return SECRET_PREFIX + origin;
}

/** True for servers on this machine, which usually need no key (Ollama, LM Studio, llama.cpp). */
export function isLoopback(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname;
  } catch {
    return false;
  }
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The read side of VS Code's SecretStorage. */
export interface SecretReader {
  get(name: string): PromiseLike<string | undefined>;
}

export type KeySource = { kind: 'stored'; origin: string } | { kind: 'env'; variable: string } | { kind: 'none'; origin: string };

export interface ApiKeyLookup {
  key?: string;
  source: KeySource;
}

/**
 * The API key for requests to `baseUrl`: the one stored for its origin, else `OPENAI_API_KEY`
 * when (and only when) the origin is OpenAI's, else none. Reads no other secret.
 */
export async function apiKeyFor(baseUrl: string, secrets: SecretReader, env: Readonly<Record<string, string | undefined>>): Promise<ApiKeyLookup> {
  const o = originOf(baseUrl);
  if (!o.ok) throw new Error(`judgeStudio.endpoint.baseUrl: ${o.error}`);
  const stored = await secrets.get(secretName(o.origin));
  if (stored) return { key: stored, source: { kind: 'stored', origin: o.origin } };
  const fromEnv = env[OPENAI_ENV];
  if (o.origin === OPENAI_ORIGIN && fromEnv) return { key: fromEnv, source: { kind: 'env', variable: OPENAI_ENV } };
  return { source: { kind: 'none', origin: o.origin } };
}

/** For the log: where the key came from, never the key. */
export function describeKeySource(source: KeySource): string {
  switch (source.kind) {
    case 'stored':
      return `API key stored for ${source.origin}`;
    case 'env':
      return `API key from $${source.variable}`;
    case 'none':
      return `no API key for ${source.origin} (no Authorization header)`;
  }
}
