// Flags several commands take, each described once: the judge endpoint and its keys, panel
// endpoints, the judge call itself, tiered judging and the CI outputs.
import { DEFAULT_RETRY } from '../../core/judge/transport/retry';
import type { FlagTable } from './flags';

/** Every command that calls a judge (see cli/endpoint.ts for the key rules). */
export const ENDPOINT_OPTIONS = {
  'base-url': { type: 'string', arg: 'URL', help: 'OpenAI-compatible endpoint (default $JUDGE_STUDIO_BASE_URL, $OPENAI_BASE_URL, else https://api.openai.com/v1); Ollama: http://localhost:11434/v1' },
  'api-key-env': { type: 'string', arg: 'VAR', help: "environment variable holding the API key (default OPENAI_API_KEY); it is sent to --base-url's origin only. Without a key no Authorization header is sent (fine for local servers)" },
  org: { type: 'string', arg: 'ID', help: 'OpenAI organisation header (sent to --base-url only)' },
  header: { type: 'string', arg: 'K:V', multiple: true, help: 'extra request header (repeatable; sent to --base-url only)' },
  'azure-api-version': { type: 'string', arg: 'V', help: 'Azure OpenAI: --base-url is the resource or deployment endpoint' },
  'allow-insecure-http': { type: 'boolean', help: 'send the API key over plain http to a host that is not this machine' },
} as const satisfies FlagTable;

/** Named endpoints of a panel and their keys. */
export const PANEL_ENDPOINT_OPTIONS = {
  endpoint: { type: 'string', arg: 'NAME=URL', multiple: true, help: 'names an endpoint for --judge MODEL@NAME and model.judges[].endpoint (repeatable)' },
  'endpoint-key': { type: 'string', arg: 'NAME=VAR', multiple: true, help: 'the environment variable whose key goes to endpoint NAME (and only there); without it an endpoint other than --base-url gets no key (repeatable)' },
  'trust-template-endpoints': { type: 'boolean', help: 'also send the --api-key-env key to the URLs model.judges names' },
} as const satisfies FlagTable;

export const MODEL = { type: 'string', arg: 'M', help: "model (default: the template's model.name)" } as const;
export const STRUCTURED = { type: 'string', arg: 'MODE', help: 'json_schema (default), json_object or none; rejected modes fall back' } as const;
export const CONCURRENCY = { type: 'string', arg: 'N', help: "requests in flight (default 8; lowered automatically on repeated 429s)" } as const;
export const TIMEOUT = { type: 'string', arg: 'MS', help: 'per-request deadline in milliseconds (default 120000)' } as const;
export const RETRIES = { type: 'string', arg: 'N', help: `retries on 429, 5xx, timeouts and network errors (default ${DEFAULT_RETRY.retries})` } as const;
export const JUDGE = {
  type: 'string',
  arg: 'MODEL[@BASE_URL]',
  multiple: true,
  help: "a panel member (repeatable; replaces the template's model.judges): every member judges every row with the full protocol; BASE_URL may also be a name given with --endpoint. Without @, the member uses --base-url.",
} as const;
export const MIN_JUDGES = { type: 'string', arg: 'N', help: 'panel quorum: judges that must answer (default: a strict majority)' } as const;
export const NO_CACHE = { type: 'boolean', help: 'do not read or write the judge cache' } as const;
export const CACHE_DIR = { type: 'string', arg: 'DIR', help: 'cache location (default $JUDGE_STUDIO_CACHE_DIR, else $XDG_CACHE_HOME/judge-studio, else ~/.cache/judge-studio)' } as const;
export const ROWS = { type: 'string', arg: 'A-B', help: 'only rows A..B (1-based, inclusive; "A-", "-B" and "N" work too)' } as const;
export const SHARD = { type: 'string', arg: 'K/N', help: "only rows whose (row − 1) mod N = K − 1: one of N machines' share (with --rows, the rows in both); join the shards with judge-studio merge" } as const;
export const PRICE = { type: 'string', arg: 'IN,OUT[,CACHED]', help: "USD per million prompt,completion tokens, to print a cost; CACHED prices the prompt tokens the provider reports as read from its prompt cache" } as const;
export const MAX_REPLY_BYTES = { type: 'string', arg: 'N', help: 'a reply body longer than N bytes (default 8388608, 8 MiB) is not read on: the row fails as reply-too-large' } as const;
export const REASK = {
  type: 'boolean',
  help: 'templates with dimensions: when a reply breaks a consistency rule, send one follow-up quoting the rule; both replies are kept and the rules the final one still breaks are reported. Without it violations are only reported.',
} as const;

const TIERS = 'Tiered judging (a cheap screen first, --model for the rows it escalates)';

/** `run --screen-model` and its companions (parsed in cli/tiers.ts). */
export const TIER_OPTIONS = {
  'screen-model': { type: 'string', arg: 'S', group: TIERS, help: 'judge every row with S first' },
  escalate: {
    type: 'string',
    arg: 'RULES',
    group: TIERS,
    help: "when the --model judge takes over, a comma list of: failed (S's reply failed), inconsistent (S's swapped passes disagreed), confidence<X, band=LO-HI (S's score, the weighted overall for criteria, inside LO..HI); default \"failed\"",
  },
  audit: { type: 'string', arg: 'P', group: TIERS, help: 'also send a seeded random P% of the rows S decided to --model, so `judge-studio thresholds` can measure the escalation threshold' },
  'audit-seed': { type: 'string', arg: 'N', group: TIERS, help: 'the seed that picks the audited rows (default 1)' },
  'screen-price': { type: 'string', arg: 'IN,OUT', group: TIERS, help: 'USD per million tokens of S, with --price to report the cost saved' },
} as const satisfies FlagTable;

/** `--junit` and `--summary` of calibrate and compare (written by cli/ci.ts). */
export const CI_OPTIONS = {
  junit: { type: 'string', arg: 'F', help: 'write JUnit XML to F (its folder made when missing): each gate a test case' },
  summary: { type: 'string', arg: 'F', help: 'append a Markdown summary to F (default: $GITHUB_STEP_SUMMARY when set)' },
} as const satisfies FlagTable;

/** The judge call of a command that judges rows without run's batch flags (probe, align). */
export const JUDGE_CALL_OPTIONS = {
  ...ENDPOINT_OPTIONS,
  model: MODEL,
  concurrency: CONCURRENCY,
  timeout: TIMEOUT,
  structured: STRUCTURED,
  'no-cache': NO_CACHE,
  'cache-dir': CACHE_DIR,
} as const satisfies FlagTable;
