// Which workspace files a picker offers: one rule for every template and dataset picker of the
// editor and the CLI. Paths are workspace-relative with `/` separators.

/** Judge Studio's own folder: snapshots, caches, results and reports, never a user's choice. */
const OWN_FOLDER = '.judge-studio';
const NEVER = new Set([OWN_FOLDER, 'node_modules', '.git', '.vscode']);
const DATA_EXTENSIONS = /\.(jsonl|ndjson|json|csv)$/i;
/** Results files as run, probe and align name them: `x.results.jsonl`, `x-results.jsonl`, `x_results.jsonl`. */
const RESULTS = /[._-]results\.(jsonl|ndjson|json|csv)$/i;
/** Reports and manifests written beside results, and tool configuration that happens to be JSON. */
const NOT_DATA = /^(align-report|probe-report|package(-lock)?|tsconfig[\w.-]*|jsconfig|settings|launch|tasks|extensions|\.eslintrc)\.json$|\.(run|state|report)\.json$/i;

function segments(relPath: string): string[] {
  return relPath.replace(/\\/g, '/').split('/').filter((s) => s !== '' && s !== '.');
}

function inExcludedFolder(parts: readonly string[]): boolean {
  return parts.slice(0, -1).some((p) => NEVER.has(p));
}

/** A `.judge` file a template picker lists: not a snapshot under `.judge-studio/` (nor in node_modules). */
export function isTemplateChoice(relPath: string): boolean {
  const parts = segments(relPath);
  return (parts[parts.length - 1] ?? '').toLowerCase().endsWith('.judge') && !inExcludedFolder(parts);
}

/** A file a dataset picker lists: a data file that is not a results file, a report, or under `.judge-studio/`. */
export function isDatasetChoice(relPath: string): boolean {
  const parts = segments(relPath);
  const name = parts[parts.length - 1] ?? '';
  return DATA_EXTENSIONS.test(name) && !RESULTS.test(name) && !NOT_DATA.test(name) && !inExcludedFolder(parts);
}
