// The `judge-studio` command: dispatch, exit codes, Ctrl-C.
import { EXIT_USAGE, UsageError, type CliIO, type Command } from './io';
import { cliSecrets } from './secrets';
import { scrubSecrets, scrubValues } from '../core/security/scrub';

declare const JUDGE_STUDIO_VERSION: string;

// Each command loads on first use (esbuild initialises a dynamically imported module only when the
// import runs), so `calibrate` or `validate` never sets up the openai SDK, Handlebars or the batch
// code it does not use.
const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await import('./commands/validate')).validateCommand,
  render: async () => (await import('./commands/render')).renderCommand,
  run: async () => (await import('./commands/run')).runCommand,
  calibrate: async () => (await import('./commands/calibrate')).calibrateCommand,
  generate: async () => (await import('./commands/generate')).generateCommand,
  labels: async () => (await import('./commands/labels')).labelsCommand,
  compare: async () => (await import('./commands/compare')).compareCommand,
  probe: async () => (await import('./commands/probe')).probeCommand,
  import: async () => (await import('./commands/import')).importCommand,
  'import-data': async () => (await import('./commands/importData')).importDataCommand,
  thresholds: async () => (await import('./commands/thresholds')).thresholdsCommand,
  merge: async () => (await import('./commands/merge')).mergeCommand,
  batch: async () => (await import('./commands/batch')).batchCommand,
  align: async () => (await import('./commands/align')).alignCommand,
};

const USAGE = `Usage: judge-studio <command> [options]

Commands:
  validate <files…> [--json] [--warnings-as-errors]
  render <template> --data <file> [--row N] [--swap] [--json]
  run <template> --data <file> [--rows A-B] [--base-url URL] [--model M] [--api-key-env VAR]
      [--concurrency N] [--out results.jsonl] [--json] [--samples N] [--resume] [--no-cache]
      [--dry-run] [--timeout MS] [--structured json_schema|json_object|none]
      [--reask-on-violation]            (judge-studio run --help lists every option)
  generate rubric|steps <template> [--domain D] [--strictness lenient|balanced|strict] [--write]
      [--base-url URL] [--model M] …     (judge-studio generate --help lists every option)
  calibrate <file> --metric NAME [--json] [--min KEY=VALUE …] [--labels FILE] [--template T] [--swap-rule consistent|votes] [--by COLUMN]
      [--junit F] [--summary F]   (JUnit XML and a Markdown summary; $GITHUB_STEP_SUMMARY when set)
  labels export --labels FILE --data D --out D2 [--metric M] [--template T]
  compare <A.jsonl> <B.jsonl> --metric NAME [--metric-b NAME] [--json] [--fail-if-worse FIGURE]
      [--junit F] [--summary F]
  probe <template> --data <file> [--probes LIST] [--threshold T] [--out DIR]   (probe --help)
  import fastchat|promptfoo|vertex|openai-evals <file> --out DIR [--force] [--json] [--allow DIR]
  import-data llmbar|judgebench|pandalm|mtbench-human|multi-annotator <file> --out D.jsonl
      (--template T | --metric M) [--labels L.jsonl] [--dimension D] [--aggregate majority|mean|median]
      [--prompt-field F] [--response-field F] [--set NAME] [--force] [--json]
  thresholds <results> --metric NAME [--by confidence|band] [--json]   (tiered runs: run --screen-model)
  merge <results.jsonl…> --out <merged.jsonl> [--overwrite] [--json]   (shards of run --shard K/N)
  batch submit|status|collect|cancel --state S.json …   provider Batch API (batch --help)
  align <template> --data <file> --metric M [--labels F] [--split S] [--seed S] [--budget N] …
      candidates from the judge's disagreements with human labels, tested on held-out rows (align --help)

Exit codes: 0 success, 1 findings or failed rows, 2 bad usage or unreadable input.
`;

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(USAGE);
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${JUDGE_STUDIO_VERSION}\n`);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    io.stderr(`judge-studio: unknown command "${name}"\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  // `run` prints its own, longer help; the others share the overview.
  if (!['run', 'generate', 'probe', 'merge', 'batch', 'align'].includes(name) && (args.includes('--help') || args.includes('-h'))) {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const command = await load();
    return await command(args, io);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.stderr(`judge-studio ${name}: ${(e as Error).message}\n`);
      return EXIT_USAGE;
    }
    io.stderr(`judge-studio ${name}: internal error: ${(e as Error).stack ?? e}\n`);
    return EXIT_USAGE;
  }
}

/** Runs the CLI as a process: argv, stdio, exit code, Ctrl-C and SIGTERM. */
export function runCli(): void {
  const controller = new AbortController();
  let interrupted = false;
  // First Ctrl-C (or SIGTERM, as CI runners and `timeout` send): stop cleanly, so the rows already
  // judged are written and the lock released. Second: quit now.
  const stop = (signal: 'SIGINT' | 'SIGTERM') => () => {
    if (interrupted) process.exit(signal === 'SIGINT' ? 130 : 143);
    interrupted = true;
    process.stderr.write(`\njudge-studio: ${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'}: stopping after the requests in flight… (again to quit now)\n`);
    controller.abort();
  };
  process.on('SIGINT', stop('SIGINT'));
  process.on('SIGTERM', stop('SIGTERM'));
  // A last guard: no key value reaches the screen, whatever printed it (see docs/security.md).
  const secrets = cliSecrets(process.argv.slice(2), process.env);
  main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(scrubValues(s, secrets)),
    stderr: (s) => process.stderr.write(scrubSecrets(s, secrets)),
    cwd: process.cwd(),
    env: process.env,
    signal: controller.signal,
  }).then(
    (code) => {
      process.exitCode = interrupted && code === 0 ? 130 : code;
    },
    (e) => {
      process.stderr.write(scrubSecrets(`judge-studio: ${(e as Error).stack ?? e}\n`, secrets));
      process.exitCode = EXIT_USAGE;
    },
  );
}

if (require.main === module) runCli();
