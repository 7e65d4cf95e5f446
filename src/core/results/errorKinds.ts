// Why a row failed, as a stable code in `m/error_kind`: users filter on these and the editor
// classifies by them, never by matching English text. Add codes; never rename one.
export const ERROR_KINDS = [
  'rate-limit', // 429 after every retry
  'server', // 5xx (and 408/409) after every retry
  'timeout', // no complete reply within the request deadline
  'network', // the endpoint could not be reached or the connection broke
  'auth', // 401/403: the key is missing, wrong or lacks access
  'bad-request', // another 4xx: the endpoint rejected the request (model name, parameters)
  'invalid-reply', // the reply did not validate, even after the one repair request
  'render', // the template could not be rendered for this row (a missing field)
  'cancelled', // the user stopped the run before this row finished
  'no-majority', // a panel gave no strict majority (pass/fail)
  'quorum', // fewer panel judges answered than the quorum
  'internal', // a bug in Judge Studio itself; reported, never retried as a network error
  'reply-too-large', // the reply body passed --max-reply-bytes; the connection was closed
  'ambiguous-verdict', // `verdict.match: unique`: the reply gave different verdicts, even after the one repair request
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && (ERROR_KINDS as readonly string[]).includes(value);
}

/** One line each, for help texts and the README. */
export const ERROR_KIND_HELP: Record<ErrorKind, string> = {
  'rate-limit': 'the endpoint kept answering 429 (rate limited) after every retry',
  server: 'the endpoint kept failing with a 5xx (or 408/409) after every retry',
  timeout: 'no complete reply within the request deadline (--timeout)',
  network: 'the endpoint could not be reached, or the connection broke mid-reply',
  auth: 'the endpoint refused the credentials (401/403)',
  'bad-request': 'the endpoint rejected the request (another 4xx: model name, parameters)',
  'invalid-reply': 'the reply did not validate, even after one repair request',
  render: 'the template could not be rendered for this row (a field is missing or null)',
  cancelled: 'the run was stopped before this row finished',
  'no-majority': 'a panel of judges gave no strict majority',
  quorum: 'fewer panel judges answered than the quorum asks',
  internal: 'a bug in Judge Studio; please report it with the log',
  'reply-too-large': 'the reply was longer than --max-reply-bytes (default 8 MiB); it was not read further nor kept',
  'ambiguous-verdict': 'with `verdict.match: unique`, the reply gave two different verdicts, even after one repair request',
};
