// Secrets never stored or printed: every string a server sends (a reply's text, its model name and
// ids, an error message) is scrubbed of the key values in use, and everything but the reply text of
// anything shaped like a credential too, before it reaches a results file, the cache, a manifest, a
// log or the screen. Transports apply it once, through scrubReply and scrubSecrets (openaiClient.ts,
// errors.ts, batch/api.ts, batch/replies.ts); the CLI's output and the editor's output channel
// apply it again as a last guard.

export const MASK = '«redacted»';

/** Shorter values would mask ordinary words; every real key is longer. */
export const MIN_SECRET_LENGTH = 8;

/** Shapes of credentials, whatever their value: each keeps its prefix and loses the secret part. */
const SHAPES: [RegExp, string][] = [
  // Authorization schemes: `Bearer sk-…`, `Basic dXNlcjpwYXNz`, `Token …`.
  [/\b(Bearer|Basic|Token)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${MASK}`],
  // OpenAI, Anthropic and most "sk-" keys (sk-proj-…, sk-ant-…), Hugging Face, GitHub, Slack, Google, AWS ids.
  [/\bsk-[A-Za-z0-9_-]{12,}/g, MASK],
  [/\bhf_[A-Za-z0-9]{20,}/g, MASK],
  [/\bgh[pousr][_-][A-Za-z0-9_-]{16,}/g, MASK],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, MASK],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, MASK],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, MASK],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, MASK],
  // JSON Web Tokens: three base64url parts, the first starting with `{"` encoded.
  [/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, MASK],
  // `api-key: …`, `"api_key": "…"`, `token=…`, `password=…`: the value after a credential's name.
  [/\b((?:api[-_ ]?key|access[-_ ]?token|auth[-_ ]?token|secret|password|subscription[-_ ]?key|token)["']?\s*[:=]\s*["']?)[A-Za-z0-9._~+/-]{12,}/gi, `$1${MASK}`],
];

/** `text` with every value in `secrets` (of MIN_SECRET_LENGTH or more) masked, as written and URL-encoded. */
export function scrubValues(text: string, secrets: readonly string[]): string {
  let out = text;
  const values = new Set<string>();
  for (const s of secrets) {
    const v = s.trim();
    if (v.length < MIN_SECRET_LENGTH) continue;
    values.add(v);
    values.add(encodeURIComponent(v));
    // A header value such as `Bearer sk-…`: its token alone is the secret too.
    const token = /^(?:Bearer|Basic|Token)\s+(\S+)$/i.exec(v)?.[1];
    if (token && token.length >= MIN_SECRET_LENGTH) values.add(token);
  }
  for (const v of [...values].sort((a, b) => b.length - a.length)) {
    if (out.includes(v)) out = out.split(v).join(MASK);
  }
  return out;
}

/** Error text scrubbed of the values in use and of anything shaped like a credential. */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = scrubValues(text, secrets);
  for (const [shape, replacement] of SHAPES) out = out.replace(shape, replacement);
  return out;
}

/** A reply's model name (or id) is a label: longer than this is cut, with a mark. */
export const MAX_LABEL_CHARS = 200;

/** A short string a server sends besides its reply text (a model name, an id): scrubbed like an error, bounded, on one line. */
export function scrubLabel(text: string, secrets: readonly string[] = []): string {
  const clean = scrubSecrets(text, secrets).replace(/[\u0000-\u001f\u007f]/g, ' ');
  return clean.length > MAX_LABEL_CHARS ? `${clean.slice(0, MAX_LABEL_CHARS)}…` : clean;
}

/**
 * The one scrub of a reply, for every transport: its text is masked of the values in use (a shape
 * test would rewrite what a judge wrote about tokens), its model name of values and shapes alike.
 */
export function scrubReply<R extends { text: string; model: string }>(reply: R, secrets: readonly string[]): R {
  const text = scrubValues(reply.text, secrets);
  const model = scrubLabel(reply.model, secrets);
  return text === reply.text && model === reply.model ? reply : { ...reply, text, model };
}

/** Environment variable names that hold a secret by their name alone. */
export function isSecretName(name: string): boolean {
  return /key|token|secret|passw|auth|credential/i.test(name);
}

/** The values of the named variables and of every variable whose name says it holds a secret. */
export function secretsFromEnv(env: Readonly<Record<string, string | undefined>>, names: readonly string[] = []): string[] {
  const wanted = new Set(names);
  return Object.entries(env).flatMap(([k, v]) => (v !== undefined && v.length >= MIN_SECRET_LENGTH && (wanted.has(k) || isSecretName(k)) ? [v] : []));
}
