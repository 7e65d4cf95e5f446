// What every view's protocol shares: the number checks, and reading a message with its schema
// into the message or a short reason it was rejected (logged by the host, shown by the page).
import * as z from 'zod/mini';

/** A count: 0, 1, 2, … */
export const count = z.int().check(z.nonnegative());
/** A 1-based position: a row, a line or a column. */
export const position = z.int().check(z.positive());

export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

/** `raw` checked against `schema`: the typed message, or why it does not fit. */
export function parseMessage<T>(schema: z.ZodMiniType<T>, raw: unknown): Parsed<T> {
  const parsed = schema.safeParse(raw);
  return parsed.success ? { ok: true, message: parsed.data } : { ok: false, reason: describeRejection(parsed.error) };
}

/** A short reason for a rejected message, for logs: first issue path and message. */
export function describeRejection(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid message';
  return `${issue.path.join('.') || 'message'}: ${issue.message}`;
}
