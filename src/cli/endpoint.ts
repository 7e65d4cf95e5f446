// The judge endpoint of every CLI command that calls one (run, generate, probe): the same flags,
// the same key rules and the same protections. A key never goes over plain http to another
// machine, credentials in a URL are refused and never printed, and the cache scope covers every
// request-shaping setting.
import { checkEndpoint, endpointScope, redactUrl } from '../core/judge/transport/endpoint';
import { OpenAICompatibleClient } from '../core/judge/transport/openaiClient';
import { UsageError, type CliIO } from './io';

/** parseArgs options shared by every command that calls a judge. */
export const ENDPOINT_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key-env': { type: 'string' },
  org: { type: 'string' },
  header: { type: 'string', multiple: true },
  'azure-api-version': { type: 'string' },
  'allow-insecure-http': { type: 'boolean' },
} as const;

export const ENDPOINT_USAGE = `  --base-url URL           OpenAI-compatible endpoint (default $JUDGE_STUDIO_BASE_URL, $OPENAI_BASE_URL,
                           else https://api.openai.com/v1); Ollama: http://localhost:11434/v1
  --api-key-env VAR        environment variable holding the API key (default OPENAI_API_KEY);
                           without a key no Authorization header is sent (fine for local servers)
  --org ID                 OpenAI organisation header
  --header K:V             extra request header (repeatable)
  --azure-api-version V    Azure OpenAI: --base-url is the resource or deployment endpoint
  --allow-insecure-http    send the API key over plain http to a host that is not this machine`;

export interface EndpointValues {
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
  org?: string | undefined;
  header?: string[] | undefined;
  'azure-api-version'?: string | undefined;
  'allow-insecure-http'?: boolean | undefined;
}

export interface CliEndpoint {
  baseURL: string;
  /** The base URL as printed (never with credentials). */
  shownURL: string;
  headers: Record<string, string>;
  /** Every request-shaping setting, hashed (plus `variant`), for cache keys. */
  cacheScope: string;
  /** Builds the client; call it only when the command really sends requests (not for --dry-run). */
  client(opts: { timeoutMs: number; log: (m: string) => void }): OpenAICompatibleClient;
}

/** Reads and checks the endpoint flags; every problem is a UsageError (exit 2) that names the flag. */
export function endpointFromArgs(v: EndpointValues, io: CliIO, variant?: string): CliEndpoint {
  const baseURL = v['base-url'] ?? io.env.JUDGE_STUDIO_BASE_URL ?? io.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const shape = checkEndpoint(baseURL, { sendsCredentials: false });
  if (!shape.ok) throw new UsageError(shape.message);
  const headers = parseHeaders(v.header ?? []);
  const azureApiVersion = v['azure-api-version'];
  const cacheScope = endpointScope({
    baseURL,
    headers,
    ...(v.org !== undefined ? { organization: v.org } : {}),
    ...(azureApiVersion !== undefined ? { azureApiVersion } : {}),
    ...(variant ? { variant } : {}),
  });
  return {
    baseURL,
    shownURL: redactUrl(baseURL),
    headers,
    cacheScope,
    client({ timeoutMs, log }) {
      const keyEnv = v['api-key-env'] ?? 'OPENAI_API_KEY';
      const apiKey = io.env[keyEnv] || undefined;
      if (!apiKey) {
        if (v['api-key-env'] !== undefined) throw new UsageError(`--api-key-env ${keyEnv}: the variable is not set or empty`);
        if (azureApiVersion !== undefined || new URL(baseURL).hostname === 'api.openai.com') {
          throw new UsageError(`${redactUrl(baseURL)} needs an API key: set ${keyEnv} (or name another variable with --api-key-env)`);
        }
        log(`no API key ($${keyEnv} is not set): sending no Authorization header, which local servers (Ollama, vLLM, LM Studio, llama.cpp) accept`);
      }
      const sendsCredentials = apiKey !== undefined || Object.keys(headers).some((h) => /^(authorization|api-key|x-api-key|proxy-authorization)$/i.test(h));
      const check = checkEndpoint(baseURL, { sendsCredentials, allowInsecureHttp: v['allow-insecure-http'] === true });
      if (!check.ok) throw new UsageError(check.message);
      try {
        return new OpenAICompatibleClient({
          baseURL,
          timeoutMs,
          headers,
          log,
          apiKeyEnv: keyEnv,
          ...(apiKey ? { apiKey } : {}),
          ...(v.org !== undefined ? { organization: v.org } : {}),
          ...(azureApiVersion !== undefined ? { azureApiVersion } : {}),
        });
      } catch (e) {
        throw new UsageError(e instanceof Error ? e.message : String(e));
      }
    },
  };
}

export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    const key = h.slice(0, i).trim();
    if (i <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) throw new UsageError(`--header takes Name:value, got "${h}"`);
    headers[key] = h.slice(i + 1).trim();
  }
  return headers;
}
