// Where a key may be sent, and how an endpoint is named in output: credentials never travel over
// plain http to another machine, never ride in a URL, and never appear in a log, a summary, a
// history entry or a cache key. Keys are bound to an origin (scheme, host and port).
import { canonicalJson, sha256Hex } from '../../results/keys';
import { MASK, scrubSecrets } from '../../security/scrub';

/**
 * 127.0.0.0/8, [::1] and `localhost` itself: traffic that never leaves the machine. `foo.localhost`
 * is a name like any other, and so is `localhost.` (a fully qualified name, asked of DNS).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Header names that always carry a credential, besides any name containing key, token, secret or auth. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-goog-api-key', 'ocp-apim-subscription-key', 'api-key', 'x-api-key']);

/** True for a header whose value is a secret: it is never printed, and never sent over plain http to another machine. */
export function isCredentialHeader(name: string): boolean {
  const n = name.trim().toLowerCase();
  return CREDENTIAL_HEADERS.has(n) || /key|token|secret|auth|passw|pwd|signature|session|credential|cookie|jwt|bearer/.test(n) || /(^|[-_])(sig|pass)($|[-_])/.test(n);
}

/** Query parameters that carry a credential: `api-key`, `key`, `code` (Azure Functions), `sig` (SAS), `jwt`, anything token- or secret-like. */
export function isCredentialParam(name: string): boolean {
  const n = name.trim().toLowerCase();
  return /^(key|code|sig|signature|pass|password|pwd|jwt)$/.test(n) || /key|token|secret|auth|passw|credential|session|jwt/.test(n);
}

/**
 * Where a URL carries a credential besides user:password@ and its query: a `#fragment` (never sent,
 * but printed and stored), a `;name=value` path parameter of a credential's name, or a path segment
 * shaped like a key (`/sk-…`, a JSON Web Token). Names what it found, never the value.
 */
export function credentialsElsewhere(u: URL): string | undefined {
  if (u.hash !== '') return 'a #fragment';
  const segments = u.pathname.split('/').map((s) => safeDecode(s));
  const param = segments.flatMap((s) => s.split(';').slice(1)).map((p) => p.split('=')[0] ?? '').find(isCredentialParam);
  if (param !== undefined) return `the path parameter ;${param}=`;
  if (segments.some((s) => scrubSecrets(s) !== s)) return 'a path segment shaped like a key';
  return undefined;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The URL with `user:password@`, credential query values, a fragment and credential path parameters
 * replaced by `***`, and key-shaped path segments masked; text that is not a URL is returned with
 * the same masking applied by pattern.
 */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    const params = [...u.searchParams.keys()].filter(isCredentialParam);
    if (u.username === '' && u.password === '' && params.length === 0 && credentialsElsewhere(u) === undefined) return url;
    if (u.username !== '' || u.password !== '') {
      u.username = '***';
      u.password = '';
    }
    for (const p of params) u.searchParams.set(p, '***');
    if (u.hash !== '') u.hash = '***';
    u.pathname = u.pathname
      .split('/')
      .map((s) => (scrubSecrets(safeDecode(s)) !== safeDecode(s) ? MASK : s.replace(/;([^=;/]*)=[^;/]*/g, (m, name: string) => (isCredentialParam(name) ? `;${name}=***` : m))))
      .join('/');
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '').replace(/%2A%2A%2A/g, '***').replace(/%C2%ABredacted%C2%BB/g, MASK);
  } catch {
    return scrubSecrets(url.replace(/\/\/[^/@\s]*@/, '//***@').replace(/([?&;#][^=&#;\s]*(?:key|token|secret|auth|sig|code|jwt|pass)[^=&#;\s]*=)[^&#;\s]*/gi, '$1***'));
  }
}

export type EndpointCheck = { ok: true } | { ok: false; message: string };

/**
 * A base URL the judge may use: http(s), no credentials in it (in `user:password@` or the query:
 * they would be printed, logged and stored), and no key over plain http to a host that is not this
 * machine unless explicitly allowed.
 */
export function checkEndpoint(url: string, o: { sendsCredentials: boolean; allowInsecureHttp?: boolean; flag?: string }): EndpointCheck {
  const flag = o.flag ?? '--base-url';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, message: `${flag} "${redactUrl(url)}" is not a URL (e.g. http://localhost:11434/v1)` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, message: `${flag} must be http or https, got "${redactUrl(url)}"` };
  if (u.username !== '' || u.password !== '') {
    return {
      ok: false,
      message: `${flag} "${redactUrl(url)}" carries credentials (user:password@); they would be printed and stored. Pass the key with --api-key-env (or a --header) instead`,
    };
  }
  const params = [...new Set([...u.searchParams.keys()].filter(isCredentialParam))];
  if (params.length > 0) {
    return {
      ok: false,
      message: `${flag} "${redactUrl(url)}" carries a credential in its query (${params.join(', ')}); it would be printed, logged and stored. Remove it from the URL and pass the key with --api-key-env (or a --header such as api-key:VALUE) instead`,
    };
  }
  const elsewhere = credentialsElsewhere(u);
  if (elsewhere !== undefined) {
    return {
      ok: false,
      message: `${flag} "${redactUrl(url)}" carries ${elsewhere}, where a credential would be printed, logged and stored; a base URL needs none. Remove it and pass the key with --api-key-env (or a --header) instead`,
    };
  }
  if (o.sendsCredentials && u.protocol === 'http:' && !isLoopbackHost(u.hostname) && !o.allowInsecureHttp) {
    return {
      ok: false,
      message: `refusing to send an API key over plain http to ${u.host}, where anyone on the way can read it; use https, or pass --allow-insecure-http if this network is yours`,
    };
  }
  return { ok: true };
}

/** The origin (scheme, host, port) a key is bound to; undefined for text that is not an http(s) URL. */
export function originOf(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

export interface EndpointIdentity {
  baseURL: string;
  headers?: Record<string, string>;
  organization?: string;
  azureApiVersion?: string;
  /** Anything else that changes answers for the same messages (e.g. `reask-on-violation`). */
  variant?: string;
}

/**
 * The cache scope of an endpoint: every request-shaping setting, hashed, so two endpoints (or one
 * with other headers, organisation or API version) never share answers, and no header value is
 * stored in clear in the cache.
 */
export function endpointScope(id: EndpointIdentity): string {
  const headers = Object.fromEntries(Object.entries(id.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  return `endpoint:${sha256Hex(canonicalJson({ ...id, baseURL: id.baseURL.replace(/\/+$/, ''), headers })).slice(0, 32)}`;
}
