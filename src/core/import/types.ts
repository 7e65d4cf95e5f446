// What an importer gives back: template files to write, and problems per source prompt. Importers
// are pure: text in, text out; the CLI and the editor do the file system.

export interface ImportedTemplate {
  /** File name to write, e.g. `pair-v2.judge` (a plain name, never a path). */
  file: string;
  /** Metric name in the front matter. */
  name: string;
  text: string;
  /** Where it came from, e.g. `line 3` or `tests[0].assert[1]`. */
  source: string;
}

export interface ImportProblem {
  severity: 'error' | 'warning';
  /** Where in the source file, e.g. `line 4`. */
  where: string;
  message: string;
}

export interface ImportResult {
  templates: ImportedTemplate[];
  problems: ImportProblem[];
}

export type ImportFormat = 'fastchat' | 'promptfoo' | 'vertex' | 'openai-evals';

export const IMPORT_FORMATS: readonly ImportFormat[] = ['fastchat', 'promptfoo', 'vertex', 'openai-evals'];
