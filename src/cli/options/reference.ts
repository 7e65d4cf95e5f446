// docs/reference/cli.md, generated from the same tables that parse the flags and print `--help`
// (`npm run reference` writes it; test/unit/reference.test.ts fails when it is stale).
import { flagGroups, flagLabel, HELP_FLAG, type CommandSpec } from './flags';
import { EXIT_CODES, SPECS } from './index';

/** A Markdown table cell: pipes escaped, one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

function section(spec: CommandSpec): string[] {
  const out = [`## ${spec.name}`, '', cell(spec.summary) + '.', '', '```', ...spec.usage.map((u) => `judge-studio ${u}`), '```', '', cell(spec.description), ''];
  if (spec.positionals?.length) {
    out.push(`${cell(spec.positionalsHeading ?? 'Arguments')}:`, '', '| argument | meaning |', '|---|---|', ...spec.positionals.map(([w, t]) => `| \`${cell(w)}\` | ${cell(t)} |`), '');
  }
  for (const { heading, flags } of flagGroups(spec.options)) {
    if (heading !== undefined) out.push(`${cell(heading)}:`, '');
    out.push('| option | meaning |', '|---|---|');
    for (const [name, flag] of flags) out.push(`| \`${cell(flagLabel(name, flag))}\` | ${cell(flag.help)} |`);
    if (heading === undefined) out.push(`| \`-${HELP_FLAG.short}, --${HELP_FLAG.name}\` | ${cell(HELP_FLAG.help)} |`);
    out.push('');
  }
  if (spec.notes) out.push('```text', spec.notes.trimEnd(), '```', '');
  return out;
}

export function cliPage(specs: readonly CommandSpec[] = SPECS): string {
  return [
    '<!-- Generated from the option tables in src/cli/options/ by `npm run reference`; edit the tables, not this file. -->',
    '',
    '# Command line',
    '',
    'Every command and flag of `judge-studio`, from the tables that parse them; `judge-studio <command> --help`',
    '(or `judge-studio help <command>`) prints the same. ' + EXIT_CODES,
    '',
    '| command | does |',
    '|---|---|',
    ...specs.map((s) => `| [\`${s.name}\`](#${s.name}) | ${cell(s.summary)} |`),
    '',
    ...specs.flatMap(section),
  ].join('\n');
}

export function cliReferenceFiles(): { path: string; text: string }[] {
  return [{ path: 'docs/reference/cli.md', text: cliPage() }];
}
