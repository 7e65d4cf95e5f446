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

/** What to do about each kind, for reports that name failures (one clause each). */
export const ERROR_KIND_ACTION: Record<ErrorKind, string> = {
  'rate-limit': 'lower --concurrency, or wait and run again',
  server: 'the endpoint is failing: try again later or check its logs',
  timeout: 'raise --timeout or use a faster model',
  network: 'check --base-url and that the server is running',
  auth: 'check the API key for this endpoint (--api-key-env)',
  'bad-request': "check --model and the template's model settings against the endpoint",
  'invalid-reply': "the judge's replies do not fit the template: check its scale and output format against a reply (the results file's error column shows why)",
  render: 'a field the template uses is missing from the data: check `inputs` against the dataset',
  cancelled: 'run again to finish the rows',
  'no-majority': 'add a judge to the panel or label the rows it split on',
  quorum: 'fix the failing judges or lower --min-judges',
  internal: 'a bug in Judge Studio: please report it with the log',
  'reply-too-large': 'lower max_tokens, or raise --max-reply-bytes',
  'ambiguous-verdict': 'ask for one verdict in the template\'s output format',
};

/** What to do about a failure of this kind, or a general hint for a kind this version does not know. */
export function errorKindAction(kind: string): string {
  return isErrorKind(kind) ? ERROR_KIND_ACTION[kind] : "see the results file's error column";
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
