// `judge-studio import fastchat|promptfoo|vertex|openai-evals FILE --out DIR [--allow DIR]…`: writes one template
// per judge prompt found and validates each; an existing file is left alone unless --force. A promptfoo
// config's `file://` references are read inside its folder, and in folders named by --allow. Nothing is
// written outside --out or through a link in it, and a problem with any template writes none of them.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { IMPORT_FORMATS, importJudgePromptFile, type ImportFormat } from '../../core/import';
import { writeTemplates } from '../../core/import/write';
import { validateTemplate } from '../../core/template';
import { EXIT_FINDINGS, EXIT_OK, UsageError, type Command } from '../io';
import { IMPORT_OPTIONS } from '../options/importing';

export const importCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: IMPORT_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [format, file, ...rest] = positionals;
  if (!format || !IMPORT_FORMATS.includes(format as ImportFormat)) throw new UsageError(`import: name a format (${IMPORT_FORMATS.join(', ')}), e.g. \`judge-studio import fastchat judge_prompts.jsonl --out judges\``);
  if (!file || rest.length > 0) throw new UsageError('import: name exactly one source file');
  if (!values.out) throw new UsageError('import: --out DIR is required (the folder the templates are written to)');
  let result;
  try {
    result = await importJudgePromptFile(format as ImportFormat, path.resolve(io.cwd, file), { allow: (values.allow ?? []).map((d) => path.resolve(io.cwd, d)) });
  } catch (e) {
    throw new UsageError(`${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const outDir = path.resolve(io.cwd, values.out);
  // All templates or none, inside --out only and never through a link (core/import/write.ts).
  const outcome = await writeTemplates(outDir, result.templates, { force: values.force }).catch((e: NodeJS.ErrnoException) => {
    throw new UsageError(`${values.out}: cannot write the templates (${e.code ?? e.message}); nothing was written`);
  });
  if (!outcome.ok) throw new UsageError(outcome.message);
  const written = result.templates.map((t, i): { file: string; source: string; errors: number; warnings: number; skipped?: string } => {
    const target = path.join(outDir, t.file);
    const diagnostics = validateTemplate(t.text);
    const entry = { file: path.relative(io.cwd, target) || target, source: t.source, errors: diagnostics.filter((d) => d.severity === 'error').length, warnings: diagnostics.filter((d) => d.severity === 'warning').length };
    return outcome.status[i] === 'exists' ? { ...entry, skipped: 'exists (use --force to overwrite)' } : entry;
  });
  if (values.json) {
    io.stdout(JSON.stringify({ templates: written, problems: result.problems }, null, 2) + '\n');
  } else {
    for (const w of written) io.stdout(`${w.skipped ? 'skipped' : 'wrote'} ${w.file} (from ${w.source})${w.skipped ? `: ${w.skipped}` : ''}${w.errors ? `, ${w.errors} validation error(s)` : ''}\n`);
    for (const p of result.problems) io.stderr(`${file}: ${p.where}: ${p.severity}: ${p.message}\n`);
    io.stderr(`${written.filter((w) => !w.skipped).length} template(s) written to ${path.relative(io.cwd, outDir) || '.'}; ${result.problems.filter((p) => p.severity === 'error').length} prompt(s) not imported\n`);
  }
  const failed = result.problems.some((p) => p.severity === 'error') || written.some((w) => w.errors > 0 || w.skipped) || written.length === 0;
  return failed ? EXIT_FINDINGS : EXIT_OK;
};
