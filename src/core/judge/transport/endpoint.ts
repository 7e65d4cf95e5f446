// Where a key may be sent, and how an endpoint is named in output: credentials never travel over
// plain http to another machine, and never appear in a log, a summary, a history entry or a cache key.
import { canonicalJson, sha256Hex } from '../../results/keys';

/** 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** The URL with any `user:password@` replaced by `***@`; text that is not a URL is returned as is. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === '' && u.password === '') return url;
    u.username = '***';
    u.password = '';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url.replace(/\/\/[^/@\s]*@/, '//***@');
  }
}

export type EndpointCheck = { ok: true } | { ok: false; message: string };

/**
 * A base URL the judge may use: http(s), no credentials in it (they would be printed and stored),
 * and no key over plain http to a host that is not this machine unless explicitly allowed.
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
  if (o.sendsCredentials && u.protocol === 'http:' && !isLoopbackHost(u.hostname) && !o.allowInsecureHttp) {
    return {
      ok: false,
      message: `refusing to send an API key over plain http to ${u.host}, where anyone on the way can read it; use https, or pass --allow-insecure-http if this network is yours`,
    };
  }
  return { ok: true };
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
