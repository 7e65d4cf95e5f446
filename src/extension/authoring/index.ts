// Authoring help: generate a rubric or evaluation steps (with a diff to accept), start a new template.
import type { Studio } from '../studio';
import { registerGenerateActions } from './codeActions';
import { registerGenerate } from './generate';
import { registerNewTemplate } from './newTemplate';

export function registerAuthoring(studio: Studio): void {
  registerGenerate(studio);
  registerGenerateActions(studio);
  registerNewTemplate(studio);
}
