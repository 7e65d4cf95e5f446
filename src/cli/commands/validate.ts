import { readTemplateText } from '../template';
import { parseArgs } from 'node:util';
import type { FileDiagnostic } from '../../core/diagnostics';
import { validateTemplate } from '../../core/template';
import { formatDiagnostic, summary } from '../format';
import { EXIT_FINDINGS, EXIT_OK, UsageError, type Command } from '../io';
import { VALIDATE_OPTIONS } from '../options/checking';

export const validateCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({ args, options: VALIDATE_OPTIONS, allowPositionals: true, strict: true });
  if (!positionals.length) throw new UsageError('validate: name at least one template, e.g. `judge-studio validate examples/*.judge`');
  const all: FileDiagnostic[] = [];
  for (const file of positionals) {
    const text = await readTemplateText(io, file);
    for (const d of validateTemplate(text)) {
      const { data: _data, ...rest } = d;
      all.push({ file, ...rest });
    }
  }
  if (values.json) io.stdout(JSON.stringify(all.map(({ file, line, column, endLine, endColumn, severity, code, message }) => ({ file, line, column, endLine, endColumn, severity, code, message })), null, 2) + '\n');
  else {
    // One stream for the findings and the summary: across stdout and stderr a terminal may interleave
    // them, and the summary ended up on the last warning's line.
    io.stdout(all.map((d) => formatDiagnostic(d) + '\n').join('') + summary(all, positionals.length) + '\n');
  }
  // Like a linter: errors fail; warnings fail only when asked to.
  const failing = all.some((d) => d.severity === 'error' || (values['warnings-as-errors'] && d.severity === 'warning'));
  return failing ? EXIT_FINDINGS : EXIT_OK;
};
