// `judge-studio run --help`.
import { DEFAULT_RETRY } from '../../core/judge/transport/retry';
import { ENDPOINT_USAGE } from '../endpoint';
import { PANEL_ENDPOINT_USAGE } from '../panel';

export const USAGE = `Usage: judge-studio run <template> --data <file> [options]
       judge-studio run --resume --out <results> --base-url URL [options]   (continue a run)

  --rows A-B               only rows A..B (1-based, inclusive; "A-", "-B" and "N" work too)
  --shard K/N              only rows whose (row − 1) mod N = K − 1: one of N machines' share (with
                           --rows, the rows in both); join the shards with judge-studio merge
  --model M                model (default: the template's model.name)
${ENDPOINT_USAGE}
  --structured MODE        json_schema (default), json_object or none; rejected modes fall back
  --concurrency N          requests in flight (default 8; lowered automatically on repeated 429s)
  --timeout MS             per-request deadline (default 120000)
  --retries N              retries on 429, 5xx, timeouts and network errors (default ${DEFAULT_RETRY.retries})
  --samples N              judge each row N times; majority verdict, agreement as confidence
  --judge MODEL[@BASE_URL] a panel member (repeatable; replaces the template's model.judges): every
                           member judges every row with the full protocol; BASE_URL may also be a
                           name given with --endpoint. Without @, the member uses --base-url.
${PANEL_ENDPOINT_USAGE}
  --min-judges N           panel quorum: judges that must answer (default: a strict majority)
  --reask-on-violation     templates with dimensions: when a reply breaks a consistency rule, send one
                           follow-up quoting the rule; both replies are kept and the rules the final
                           one still breaks are reported. Without it violations are only reported.
  --out FILE               results JSONL (default <metric>.results.jsonl); an existing file is
                           never replaced silently: use --resume or --overwrite
  --resume                 keep the rows already judged in --out; judge the rest and the failed ones
                           again (the last line per row stands). Template, --data and the run's flags
                           come from <out>.run.json when not given; the endpoint flags must be given
                           again (the interruption hint prints them) and match. Refuses a file of
                           another metric or template version, and a file another run is writing
  --allow-template-change  with --resume: continue a file written by another version of the template
  --overwrite              start an existing --out file again (its rows are lost)
  --max-outage DURATION    how long the run waits, paused, while the endpoint answers nobody (429, 5xx,
                           timeouts, network; a probe request included) before it stops as
                           interrupted (default 10m; 90s, 1h)
  --allow-skipped          exit 0 even when some dataset records could not be read
  --no-cache               do not read or write the judge cache
  --cache-dir DIR          cache location (default $JUDGE_STUDIO_CACHE_DIR, else
                           $XDG_CACHE_HOME/judge-studio, else ~/.cache/judge-studio)
  --max-reply-bytes N      a reply body longer than N bytes (default 8388608, 8 MiB) is not read on:
                           the row fails as reply-too-large
  --keep-raw-replies       keep failed replies whole in "<metric>/raw_replies" (debugging a judge); by
                           default each is cut at 8,000 characters, with a mark
  --price IN,OUT[,CACHED]  USD per million prompt,completion tokens, to print a cost; CACHED prices the
                           prompt tokens the provider reports as read from its prompt cache
  --dry-run                render every row, print the request count and a token estimate, call nothing
  --json                   print the final summary as JSON on stdout

Each results line is the input row plus "_row" (its 1-based row number), "_key" (the row's identity)
and "<metric>/…" columns, with "<metric>/template_hash"; a failed row has "<metric>/error" and
"<metric>/error_kind" (rate-limit, server, timeout, network, auth, bad-request, invalid-reply, render,
cancelled, no-majority, quorum, internal, reply-too-large). Reply fields beyond the schema go under "<metric>/extra".
A panel adds "<metric>/judges" (every judge's verdict, confidence, consistency and error kind) and
"<metric>/panel_agreement"; its verdict needs a strict majority of the whole panel (pairwise: else TIE;
pass/fail: else error_kind no-majority); scores take the median (mean in "<metric>/score_mean").
A template with dimensions (e.g. HHH) also gets "<metric>/rule_violations": a reply that breaks a
consistency rule is not a parse failure, so its verdict stands and the row counts as judged.
Unreadable dataset records are reported on stderr and skipped; they get no results line.
A row whose request keeps failing while the endpoint answers others is that row's error; a 429 while
others are answered waits its turn (priority over fresh calls) without using up the retries.
Beside the results: <out>.run.json (how the run was started; never a key or a header value) and,
while the run writes, <out>.lock (a second writer exits 2 naming the holder).
Exit codes: 0 all rows judged, 1 some rows failed, some records were unreadable (see --allow-skipped)
or the run was interrupted, 2 bad usage or input (also when no selected record could be read, or
when another run is writing --out).
`;
