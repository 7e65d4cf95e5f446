export * from './types';
export { importFastChat } from './fastchat';
export { importPromptfoo, type PromptfooImportOptions } from './promptfoo';
export { importVertex } from './vertex';
export { importOpenAIEvals } from './openaiEvals';
export { parsePythonFormat, handlebarsBody, formatPython } from './pyformat';
export { confinedFiles, type ReferencedFiles } from './files';

import { readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { importFastChat } from './fastchat';
import { confinedFiles, MAX_REFERENCED_BYTES } from './files';
import { importOpenAIEvals } from './openaiEvals';
import { importPromptfoo, type PromptfooImportOptions } from './promptfoo';
import type { ImportFormat, ImportResult } from './types';
import { importVertex } from './vertex';

/** The largest source an import reads: a judge config is text; a 100 MB one took 3.5 GB to parse. */
export const MAX_SOURCE_BYTES = MAX_REFERENCED_BYTES;

function tooLarge(name: string, bytes: number): Error {
  return new Error(`${name} is ${bytes.toLocaleString('en-US')} bytes, more than the ${MAX_SOURCE_BYTES.toLocaleString('en-US')} an import reads (a judge config or prompt collection is text)`);
}

/** The source file's text and name, in a format; a promptfoo config's own files need `promptfoo` options. */
export async function importJudgePrompts(format: ImportFormat, text: string, sourceName: string, promptfoo: PromptfooImportOptions = {}): Promise<ImportResult> {
  if (text.length > MAX_SOURCE_BYTES) throw tooLarge(sourceName, Buffer.byteLength(text));
  if (format === 'fastchat') return importFastChat(text);
  if (format === 'promptfoo') return importPromptfoo(text, { name: sourceName, ...promptfoo });
  if (format === 'openai-evals') return importOpenAIEvals(text);
  return importVertex(text, sourceName);
}

export interface ImportFileOptions {
  /** Folders besides the source's own that referenced files may be read from (`--allow DIR`). */
  allow?: readonly string[];
}

/**
 * One entry point for the CLI and the editor: a source file on disk. A promptfoo config's
 * `file://` references are followed relative to it, inside its folder (and `allow`) only.
 */
export async function importJudgePromptFile(format: ImportFormat, file: string, opts: ImportFileOptions = {}): Promise<ImportResult> {
  const size = (await stat(file)).size;
  if (size > MAX_SOURCE_BYTES) throw tooLarge(path.basename(file), size);
  const text = await readFile(file, 'utf8');
  const dir = path.dirname(path.resolve(file));
  return importJudgePrompts(format, text, path.basename(file), { files: confinedFiles(dir, opts.allow ?? []), dir });
}
