// The one description of a command's flags: parseArgs reads the table to parse them, `--help` and
// `help <command>` print it, and docs/reference/cli.md is generated from it, so the three never
// disagree. This module and the tables import nothing heavy: `--help` must stay as fast as startup.

interface FlagBase {
  readonly short?: string;
  /** Printed under this heading, after the flags without one. */
  readonly group?: string;
  /** What the flag does; wrapped in `--help`, one table cell in the reference. */
  readonly help: string;
}

/** A parseArgs option with what `--help` says about it. */
export type Flag =
  | (FlagBase & { readonly type: 'string'; readonly multiple?: boolean; readonly default?: string; /** The value's placeholder: `--model M`. */ readonly arg: string })
  | (FlagBase & { readonly type: 'boolean'; readonly default?: boolean });

export type FlagTable = Readonly<Record<string, Flag>>;

export interface CommandSpec {
  readonly name: string;
  /** Usage lines, each after `judge-studio `. */
  readonly usage: readonly string[];
  /** One line for the command list of `judge-studio --help`. */
  readonly summary: string;
  /** One paragraph: what the command does. */
  readonly description: string;
  /** Positional words (subcommands, formats) and what each means. */
  readonly positionals?: readonly (readonly [string, string])[];
  /** Their heading (default "Arguments"). */
  readonly positionalsHeading?: string;
  readonly options: FlagTable;
  /** Preformatted text after the flags (output, exit codes). */
  readonly notes?: string;
}

/** Every command answers it; main.ts handles it before the command loads. */
export const HELP_FLAG = { name: 'help', short: 'h', help: 'print this help and exit 0 (also `judge-studio help <command>`)' } as const;

const WIDTH = 100;
/** The widest label that shares its line with the text (which starts at column 27). */
const LABEL = 23;

/** `--base-url URL`, `-h, --help`, `--judge MODEL (repeatable)`. */
export function flagLabel(name: string, flag: Flag): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  return `${short}--${name}${flag.type === 'string' ? ` ${flag.arg}` : ''}`;
}

/** The words of `text` in lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** `  label                    text…` with the text wrapped under itself. */
function entry(label: string, text: string): string[] {
  const indent = ' '.repeat(2 + LABEL + 2);
  const body = wrap(text, WIDTH - indent.length);
  if (label.length > LABEL) return [`  ${label}`, ...body.map((l) => indent + l)];
  return body.map((l, i) => (i === 0 ? `  ${label.padEnd(LABEL + 2)}${l}` : indent + l));
}

/** The flags in table order, grouped by heading (ungrouped first), then `--help`. */
export function flagGroups(options: FlagTable): { heading?: string; flags: [string, Flag][] }[] {
  const groups = new Map<string | undefined, [string, Flag][]>([[undefined, []]]);
  for (const [name, flag] of Object.entries(options)) {
    const list = groups.get(flag.group) ?? [];
    list.push([name, flag]);
    groups.set(flag.group, list);
  }
  return [...groups].map(([heading, flags]) => ({ ...(heading !== undefined ? { heading } : {}), flags }));
}

/** What `judge-studio <command> --help` prints. */
export function commandHelp(spec: CommandSpec): string {
  const out = spec.usage.map((u, i) => `${i === 0 ? 'Usage: ' : '       '}judge-studio ${u}`);
  out.push('', ...wrap(spec.description, WIDTH), '');
  if (spec.positionals?.length) {
    out.push(`${spec.positionalsHeading ?? 'Arguments'}:`);
    for (const [word, text] of spec.positionals) out.push(...entry(word, text));
    out.push('');
  }
  for (const { heading, flags } of flagGroups(spec.options)) {
    if (heading !== undefined) out.push(`${heading}:`);
    else out.push('Options:');
    for (const [name, flag] of flags) out.push(...entry(flagLabel(name, flag), flag.help));
    if (heading === undefined) out.push(...entry(`-${HELP_FLAG.short}, --${HELP_FLAG.name}`, HELP_FLAG.help));
    out.push('');
  }
  // Notes keep their line breaks; only a line too long for the terminal is wrapped.
  if (spec.notes) out.push(...spec.notes.trimEnd().split('\n').flatMap((l) => (l.length > WIDTH ? wrap(l, WIDTH) : [l])), '');
  return out.join('\n');
}

/** What `judge-studio --help` prints: every command in one line. */
export function overview(specs: readonly CommandSpec[], exitCodes: string): string {
  const width = Math.max(...specs.map((s) => s.name.length));
  return [
    'Usage: judge-studio <command> [options]',
    '       judge-studio <command> --help      (or judge-studio help <command>: the command\'s options)',
    '',
    'Commands:',
    ...specs.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    exitCodes,
    '',
  ].join('\n');
}
