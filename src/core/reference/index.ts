// The reference pages generated from the registries, so the lists users filter on are never typed
// twice: diagnostic codes, results columns and error kinds. `npm run reference` writes them into
// docs/reference/; a unit test fails when the files and the registries differ.
import { DIAGNOSTICS, type DiagnosticInfo } from '../diagnostics';
import { COLUMNS, type ColumnSpec } from '../results/columns';
import { ERROR_KIND_HELP, ERROR_KINDS } from '../results/errorKinds';

export interface ReferenceFile {
  /** Relative to the repository root. */
  path: string;
  text: string;
}

const GENERATED = (source: string) => `<!-- Generated from ${source} by \`npm run reference\`; edit the registry, not this file. -->`;

/** A Markdown table cell: pipes escaped, one line. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function diagnosticsPage(table: Readonly<Record<string, DiagnosticInfo>> = DIAGNOSTICS): string {
  const rows = Object.entries(table).map(([code, d]) => `| \`${code}\` | ${d.severity}${d.also ? ` (${cell(d.also)})` : ''} | ${cell(d.meaning)} |`);
  return [
    GENERATED('`DIAGNOSTICS` in src/core/diagnostics.ts'),
    '',
    '# Diagnostic codes',
    '',
    'Every problem `judge-studio validate` and the editor report carries one of these codes. They are',
    'stable: filter on them (`validate --json` gives `code` and `severity`); codes are added, never renamed.',
    'The editor shows them in the Problems view as `judge-studio(<code>)`.',
    '',
    '| code | severity | meaning |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

const FEATURE_TITLES: Record<ColumnSpec['feature'], string> = {
  verdict: 'Every row',
  pairwise: 'Pairwise templates (position swap)',
  samples: 'Runs with `--samples N`',
  criteria: 'Templates with weighted criteria',
  dimensions: 'Multi-dimension (HHH) templates',
  expected: '`model.scoring: expected`',
  panel: 'Panels of judges',
  tiers: 'Tiered runs (`--screen-model`)',
  batch: 'Provider batches',
  failure: 'Failed rows',
  human: 'Human labels (never written by a judge)',
};

export function columnsPage(columns: readonly ColumnSpec[] = COLUMNS): string {
  const out = [
    GENERATED('`COLUMNS` in src/core/results/columns.ts'),
    '',
    '# Results columns',
    '',
    'A results file is JSON Lines, one line per dataset row. Each line holds the row\'s own fields,',
    '`_row` (its 1-based number in the dataset), `_key` (its identity: the first 16 hex of sha256 over',
    'the RFC 8785 canonical JSON of the fields named in `inputs`), and, for metric `m`, the columns',
    'below as `m/<name>`. A name ending in `*` stands for a family (`m/score_<criterion>`). Where a',
    '`_row` has several lines (a resumed run appends), the last one stands.',
    '',
  ];
  const features = [...new Set(columns.map((c) => c.feature))];
  for (const feature of features) {
    out.push(`## ${FEATURE_TITLES[feature]}`, '', '| column | meaning |', '|---|---|');
    for (const c of columns.filter((x) => x.feature === feature)) out.push(`| \`m/${c.name}\` | ${cell(c.description)} |`);
    out.push('');
  }
  return out.join('\n');
}

export function errorKindsPage(kinds: readonly string[] = ERROR_KINDS, help: Readonly<Record<string, string>> = ERROR_KIND_HELP): string {
  return [
    GENERATED('`ERROR_KINDS` and `ERROR_KIND_HELP` in src/core/results/errorKinds.ts'),
    '',
    '# Error kinds',
    '',
    'A row that failed has `m/error` (what happened, in words) and `m/error_kind`, one of these stable',
    'codes. Filter on the code, never on the words; the editor headlines a failure by its kind, and',
    '`calibrate` counts failed labelled rows by kind (`failed_by_kind`).',
    '',
    '| code | the row failed because |',
    '|---|---|',
    ...kinds.map((k) => `| \`${k}\` | ${cell(help[k] ?? '')} |`),
    '',
  ].join('\n');
}

export function referenceFiles(): ReferenceFile[] {
  return [
    { path: 'docs/reference/diagnostics.md', text: diagnosticsPage() },
    { path: 'docs/reference/columns.md', text: columnsPage() },
    { path: 'docs/reference/error-kinds.md', text: errorKindsPage() },
  ];
}
