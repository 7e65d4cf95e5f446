export * from './types';
export { importFastChat } from './fastchat';
export { importPromptfoo } from './promptfoo';
export { importVertex } from './vertex';
export { importOpenAIEvals } from './openaiEvals';
export { parsePythonFormat, handlebarsBody, formatPython } from './pyformat';

import { importFastChat } from './fastchat';
import { importPromptfoo } from './promptfoo';
import type { ImportFormat, ImportResult } from './types';
import { importVertex } from './vertex';
import { importOpenAIEvals } from './openaiEvals';

/** One entry point for the CLI and the editor: the source file's text and name, in a format. */
export function importJudgePrompts(format: ImportFormat, text: string, sourceName: string): ImportResult {
  if (format === 'fastchat') return importFastChat(text);
  if (format === 'promptfoo') return importPromptfoo(text);
  if (format === 'openai-evals') return importOpenAIEvals(text);
  return importVertex(text, sourceName);
}
