// The judge endpoint of every CLI command that calls one (run, generate, probe, batch): the same
// flags, the same key rules and the same protections. A key goes only to the origin it was given
// for: the environment key (--api-key-env, default $OPENAI_API_KEY) to --base-url's origin, a
// named endpoint's key (--endpoint-key NAME=VAR) to that endpoint's origin. No template or state
// file picks where a key goes or which variable is read. Credentials in a URL are refused and never
// printed, and the cache scope covers every request-shaping setting.
import { checkEndpoint, endpointScope, isCredentialHeader, originOf, redactUrl, type EndpointIdentity } from '../core/judge/transport/endpoint';
import { OpenAICompatibleClient } from '../core/judge/transport/openaiClient';
import { UsageError, type CliIO } from './io';

export interface EndpointValues {
  'base-url'?: string | undefined;
  'api-key-env'?: string | undefined;
  org?: string | undefined;
  header?: string[] | undefined;
  'azure-api-version'?: string | undefined;
  'allow-insecure-http'?: boolean | undefined;
}

export interface ClientOptions {
  timeoutMs: number;
  log: (m: string) => void;
  /** `--max-reply-bytes`: the longest reply body read (default 8 MiB). */
  maxReplyBytes?: number;
}

/** Where a panel member is asked: its base URL, the `--endpoint` name it came by, and who named it. */
export interface MemberEndpoint {
  baseURL: string;
  name?: string;
  /** True when the template's `model.judges` named it, not the command line. */
  fromTemplate: boolean;
}

/** The keys the command line gave to named endpoints, and whether template endpoints may get the run's key. */
export interface MemberKeys {
  /** `--endpoint-key NAME=VAR`: endpoint name → environment variable. */
  byName: ReadonlyMap<string, string>;
  /** `--endpoint NAME=URL`. */
  named: ReadonlyMap<string, string>;
  /** `--trust-template-endpoints`: the run's key also goes to endpoints the template names. */
  trustTemplate: boolean;
}

export interface CliEndpoint {
  baseURL: string;
  /** The base URL as printed (never with credentials). */
  shownURL: string;
  headers: Record<string, string>;
  /** Every request-shaping setting, hashed (plus `variant`), for cache keys. */
  cacheScope: string;
  /** The variable the run's key is read from (--api-key-env, default OPENAI_API_KEY). */
  keyEnv: string;
  /** Builds the client; call it only when the command really sends requests (not for --dry-run). */
  client(opts: ClientOptions): OpenAICompatibleClient;
  /** A panel member's client and cache identity: the key, headers and organisation its origin was given, no other. */
  member(m: MemberEndpoint, keys: MemberKeys, opts: ClientOptions): { client: OpenAICompatibleClient; identity: EndpointIdentity };
}

/** Reads and checks the endpoint flags; every problem is a UsageError (exit 2) that names the flag. */
export function endpointFromArgs(v: EndpointValues, io: CliIO, variant?: string): CliEndpoint {
  const baseURL = v['base-url'] ?? io.env.JUDGE_STUDIO_BASE_URL ?? io.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const shape = checkEndpoint(baseURL, { sendsCredentials: false });
  if (!shape.ok) throw new UsageError(shape.message);
  const headers = parseHeaders(v.header ?? []);
  const azureApiVersion = v['azure-api-version'];
  const keyEnv = v['api-key-env'] ?? 'OPENAI_API_KEY';
  const own: Omit<EndpointIdentity, 'baseURL'> = {
    headers,
    ...(v.org !== undefined ? { organization: v.org } : {}),
    ...(azureApiVersion !== undefined ? { azureApiVersion } : {}),
  };
  const runOrigin = originOf(baseURL);
  const build = (url: string, key: { env: string; why: string } | undefined, id: Omit<EndpointIdentity, 'baseURL'>, opts: ClientOptions, explicit: boolean) =>
    buildClient({ baseURL: url, key, identity: id, env: io.env, allowInsecureHttp: v['allow-insecure-http'] === true, explicitKey: explicit, ...opts });
  return {
    baseURL,
    shownURL: redactUrl(baseURL),
    headers,
    cacheScope: endpointScope({ baseURL, ...own, ...(variant ? { variant } : {}) }),
    keyEnv,
    client: (opts) => build(baseURL, { env: keyEnv, why: v['api-key-env'] !== undefined ? '--api-key-env' : 'the default' }, own, opts, v['api-key-env'] !== undefined),
    member(m, keys, opts) {
      const sameOrigin = originOf(m.baseURL) === runOrigin;
      // The run's headers, organisation and API version belong to --base-url's origin, like its key.
      const id = sameOrigin ? own : {};
      const grant = memberKey(m, keys, { runOrigin, keyEnv });
      const key = grant.env !== undefined ? { env: grant.env, why: grant.why } : undefined;
      if (!key) {
        if (originOf(m.baseURL) === 'https://api.openai.com') throw new UsageError(`${redactUrl(m.baseURL)} needs an API key, and none goes there: ${grant.why}`);
        opts.log(`no API key goes to ${redactUrl(m.baseURL)} (${grant.why})`);
      }
      // The run's own variable is as explicit as --api-key-env made it.
      const explicit = grant.env === keyEnv && !grant.why.startsWith('--endpoint-key') ? v['api-key-env'] !== undefined : grant.explicit;
      return { client: build(m.baseURL, key, id, opts, explicit), identity: { baseURL: m.baseURL, ...id } };
    },
  };
}

/** The one rule for panel members: which variable's key (if any) a request to `m` may carry, and why. */
export function memberKey(m: MemberEndpoint, keys: MemberKeys, run: { runOrigin: string | undefined; keyEnv: string }): { env?: string; why: string; explicit: boolean } {
  const origin = originOf(m.baseURL);
  if (m.name !== undefined && keys.byName.has(m.name)) return { env: keys.byName.get(m.name)!, why: `--endpoint-key ${m.name}`, explicit: true };
  if (origin !== undefined && origin === run.runOrigin) return { env: run.keyEnv, why: '--base-url', explicit: false };
  for (const [name, env] of keys.byName) {
    if (originOf(keys.named.get(name) ?? '') === origin) return { env, why: `--endpoint-key ${name}`, explicit: true };
  }
  if (m.fromTemplate && keys.trustTemplate) return { env: run.keyEnv, why: '--trust-template-endpoints', explicit: false };
  const hint = m.name !== undefined ? `give it one with --endpoint-key ${m.name}=VAR` : `name it with --endpoint NAME=URL and give it a key with --endpoint-key NAME=VAR`;
  return { why: `${m.fromTemplate ? 'the template names it' : 'it is not --base-url'}; keys go only to the origin they were given for: ${hint}${m.fromTemplate ? ', or pass --trust-template-endpoints' : ''}`, explicit: false };
}

interface BuildOptions extends ClientOptions {
  baseURL: string;
  key: { env: string; why: string } | undefined;
  identity: Omit<EndpointIdentity, 'baseURL'>;
  env: CliIO['env'];
  allowInsecureHttp: boolean;
  /** The variable was named on the command line: an empty one is an error, not "no key". */
  explicitKey: boolean;
}

function buildClient(o: BuildOptions): OpenAICompatibleClient {
  const { baseURL, identity } = o;
  const apiKey = o.key ? o.env[o.key.env] || undefined : undefined;
  const headers = identity.headers ?? {};
  if (o.key && !apiKey) {
    if (o.explicitKey) throw new UsageError(`${o.key.why === '--api-key-env' ? '--api-key-env ' : `${o.key.why}: `}${o.key.env}: the variable is not set or empty`);
    if (identity.azureApiVersion !== undefined || new URL(baseURL).hostname === 'api.openai.com') {
      throw new UsageError(`${redactUrl(baseURL)} needs an API key: set ${o.key.env} (or name another variable with --api-key-env)`);
    }
    o.log(`no API key ($${o.key.env} is not set): sending no Authorization header to ${redactUrl(baseURL)}, which local servers (Ollama, vLLM, LM Studio, llama.cpp) accept`);
  }
  const sendsCredentials = apiKey !== undefined || Object.keys(headers).some(isCredentialHeader);
  const check = checkEndpoint(baseURL, { sendsCredentials, allowInsecureHttp: o.allowInsecureHttp });
  if (!check.ok) throw new UsageError(check.message);
  if (apiKey !== undefined) o.log(`the API key in $${o.key!.env} goes to ${originOf(baseURL)} only`);
  try {
    return new OpenAICompatibleClient({
      baseURL,
      timeoutMs: o.timeoutMs,
      ...(o.maxReplyBytes !== undefined ? { maxReplyBytes: o.maxReplyBytes } : {}),
      headers,
      log: o.log,
      ...(o.key ? { apiKeyEnv: o.key.env } : {}),
      ...(apiKey ? { apiKey } : {}),
      ...(identity.organization !== undefined ? { organization: identity.organization } : {}),
      ...(identity.azureApiVersion !== undefined ? { azureApiVersion: identity.azureApiVersion } : {}),
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const h of values) {
    const i = h.indexOf(':');
    const key = h.slice(0, i).trim();
    // The text is not echoed: a malformed header is often a credential typed without its name.
    if (i <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) throw new UsageError(`--header takes Name:value (a header name, a colon, the value); one --header has ${i <= 0 ? 'no name before a colon' : 'a name that is not a header name'}`);
    headers[key] = h.slice(i + 1).trim();
  }
  return headers;
}

/** `--endpoint-key NAME=VAR` values; every NAME must be an `--endpoint` and every VAR set. */
export function parseEndpointKeys(values: readonly string[], named: ReadonlyMap<string, string>, env: CliIO['env']): Map<string, string> {
  const keys = new Map<string, string>();
  for (const e of values) {
    const i = e.indexOf('=');
    const name = e.slice(0, i).trim();
    const variable = e.slice(i + 1).trim();
    if (i <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) throw new UsageError(`--endpoint-key takes NAME=ENVVAR (the name of an environment variable, not the key), got "${name || e.slice(0, 20)}=…"`);
    if (!named.has(name)) throw new UsageError(`--endpoint-key ${name}: no --endpoint ${name}=URL names that endpoint`);
    if (!env[variable]) throw new UsageError(`--endpoint-key ${name}=${variable}: the variable is not set or empty`);
    keys.set(name, variable);
  }
  return keys;
}

/** What a batch state file says about where its requests went and which variable held the key. */
export interface StateEndpoint {
  baseURL: string;
  apiKeyEnv: string;
}

/**
 * The base URL and key variable for `batch status|collect|cancel|submit` on an existing state: the
 * ones the command line (or $JUDGE_STUDIO_BASE_URL, $OPENAI_BASE_URL, the defaults) gives, which
 * must be the ones the state recorded. A state file never chooses where a key goes or which
 * secret is read; a mismatch is refused, showing both sides.
 */
export function stateEndpoint(state: StateEndpoint, v: EndpointValues, io: CliIO, stateName: string): { baseURL: string; keyEnv: string } {
  const baseURL = v['base-url'] ?? io.env.JUDGE_STUDIO_BASE_URL ?? io.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const keyEnv = v['api-key-env'] ?? 'OPENAI_API_KEY';
  const shape = checkEndpoint(state.baseURL, { sendsCredentials: false, flag: `the baseURL in ${stateName}` });
  if (!shape.ok) throw new UsageError(shape.message);
  const same = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
  const differences = [
    ...(same(state.baseURL, baseURL) ? [] : [`base URL: the state has ${redactUrl(state.baseURL)}, the command line gives ${redactUrl(baseURL)}${v['base-url'] === undefined ? ' (the default; no --base-url)' : ''}`]),
    ...(state.apiKeyEnv === keyEnv ? [] : [`key variable: the state has $${state.apiKeyEnv}, the command line gives $${keyEnv}${v['api-key-env'] === undefined ? ' (the default; no --api-key-env)' : ''}`]),
  ];
  if (differences.length > 0) {
    throw new UsageError(
      `${stateName} does not match this command line, so no key is sent:\n  ${differences.join('\n  ')}\n` +
        `A state file never decides where a key goes. If you submitted this job, repeat its flags: --base-url ${redactUrl(state.baseURL)} --api-key-env ${state.apiKeyEnv}`,
    );
  }
  return { baseURL: state.baseURL, keyEnv };
}
