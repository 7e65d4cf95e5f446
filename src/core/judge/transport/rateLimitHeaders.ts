// What a server's rate-limit headers say, read once at the transport boundary: the request-rate
// headers OpenAI and Azure send (`x-ratelimit-*-requests`, their `reset` durations) and
// `retry-after` / `retry-after-ms`. Pure functions over a header getter; the limiter decides what
// to believe.
import type { RateLimitInfo } from './types';

/** A header getter: the fetch `Headers` class and the SDK's header objects both fit. */
export interface HeaderGetter {
  get(name: string): string | null;
}

/** `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date), capped at 10 minutes. */
export function parseRetryAfter(headers: HeaderGetter | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const cap = (ms: number) => Math.min(Math.max(0, ms), 600_000);
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return cap(Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return cap(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : cap(date - now);
}

/** A duration as OpenAI and Azure write `x-ratelimit-reset-*`: `1s`, `6m0s`, `20ms`, `1h2m3.5s`, or bare seconds. */
export function parseResetDuration(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined) return undefined;
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  if (t === '' || !/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(t)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };
  let ms = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) ms += Number(m[1]) * (unit[m[2] as string] as number);
  return ms;
}

/** The request-rate headers of a reply (`x-ratelimit-limit/remaining/reset-requests`); undefined when absent or unusable (Azure sends −1 for unknown). */
export function parseRateLimit(headers: HeaderGetter | undefined | null): RateLimitInfo | undefined {
  if (!headers) return undefined;
  const int = (name: string) => {
    const v = headers.get(name);
    if (v === null || !/^\s*\d+\s*$/.test(v)) return undefined;
    return Number(v);
  };
  const remaining = int('x-ratelimit-remaining-requests');
  if (remaining === undefined) return undefined;
  const limit = int('x-ratelimit-limit-requests');
  const resetMs = parseResetDuration(headers.get('x-ratelimit-reset-requests'));
  return { remaining, ...(limit !== undefined ? { limit } : {}), ...(resetMs !== undefined ? { resetMs } : {}) };
}
