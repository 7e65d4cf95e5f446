// The `judge-studio` command: dispatch, exit codes, Ctrl-C.
import { EXIT_USAGE, UsageError, type CliIO, type Command } from './io';
import { commandHelp, EXIT_CODES, helpHint, overview, specOf, SPECS } from './options';
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
  report: async () => (await import('./commands/report')).reportCommand,
  probe: async () => (await import('./commands/probe')).probeCommand,
  import: async () => (await import('./commands/import')).importCommand,
  'import-data': async () => (await import('./commands/importData')).importDataCommand,
  thresholds: async () => (await import('./commands/thresholds')).thresholdsCommand,
  merge: async () => (await import('./commands/merge')).mergeCommand,
  batch: async () => (await import('./commands/batch')).batchCommand,
  align: async () => (await import('./commands/align')).alignCommand,
};

/** The commands main dispatches; each has a table in cli/options (a test holds the two lists equal). */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

const USAGE = overview(SPECS, EXIT_CODES);

function unknownCommand(name: string, io: CliIO): number {
  io.stderr(`judge-studio: unknown command "${name}"\n\n${USAGE}`);
  return EXIT_USAGE;
}

/** `--help` or `-h` among the arguments (before a `--`, after which words are positionals). */
function asksHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${JUDGE_STUDIO_VERSION}\n`);
    return 0;
  }
  // `help <command>`, and `<command> --help` wherever the flag stands: printed from the command's
  // table without loading the command, so nothing is read, resolved or sent.
  if (name === 'help') {
    const spec = args[0] === undefined ? undefined : specOf(args[0]);
    if (args[0] !== undefined && !spec) return unknownCommand(args[0], io);
    io.stdout(spec ? commandHelp(spec) : USAGE);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  const spec = specOf(name);
  if (!load || !spec) return unknownCommand(name, io);
  if (asksHelp(args)) {
    io.stdout(commandHelp(spec));
    return 0;
  }
  try {
    const command = await load();
    return await command(args, io);
  } catch (e) {
    const parseError = (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    if (e instanceof UsageError || parseError) {
      io.stderr(`judge-studio ${name}: ${(e as Error).message}${parseError ? `; ${helpHint(name)}` : ''}\n`);
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
