// Loading a template for a command that renders or runs it: unreadable → usage error; invalid → findings.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileDiagnostic } from '../core/diagnostics';
import { hasErrors, parseTemplate, validateTemplate, type ParsedTemplate } from '../core/template';
import { formatDiagnostic } from './format';
import { UsageError, type CliIO } from './io';

export interface LoadedTemplate {
  file: string;
  template: ParsedTemplate;
  diagnostics: FileDiagnostic[];
}

/** The text of the template named on the command line; a usage error naming it when it cannot be read. */
export async function readTemplateText(io: CliIO, file: string): Promise<string> {
  try {
    return await readFile(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    throw new UsageError(`${file}: cannot read the template (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Reads and validates; prints errors to stderr and returns undefined when the template has any. */
export async function loadValidTemplate(file: string, io: CliIO): Promise<LoadedTemplate | undefined> {
  const template = parseTemplate(await readTemplateText(io, file));
  const diagnostics = validateTemplate(template).map(({ data: _data, ...d }) => ({ file, ...d }));
  if (hasErrors(diagnostics)) {
    for (const d of diagnostics.filter((x) => x.severity === 'error')) io.stderr(formatDiagnostic(d) + '\n');
    io.stderr(`${file}: the template has errors; fix them first (\`judge-studio validate ${file}\`).\n`);
    return undefined;
  }
  return { file, template, diagnostics };
}
