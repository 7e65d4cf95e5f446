// `judge-studio generate rubric|steps <template>`: ask the judge endpoint for a rubric (one level
// per score, edge cases, guidelines) or 3–6 evaluation steps written from the template's criteria.
// Prints the new template; --write replaces the file. What produced the text is recorded in the
// front matter under `generated`.
import { readTemplateText } from '../template';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { generateSection, STRICTNESS, type GenerateKind, type Strictness } from '../../core/generate';
import { defaultCacheDir, DiskCache } from '../../core/judge/engine/cache';
import type { StructuredOutputMode } from '../../core/judge/transport/types';
import { parseTemplate } from '../../core/template';
import { endpointFromArgs } from '../endpoint';
import { GENERATE_OPTIONS } from '../options/judging';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, type Command } from '../io';

export const generateCommand: Command = async (args, io) => {
  const { values: v, positionals } = parseArgs({ args, options: GENERATE_OPTIONS, allowPositionals: true, strict: true });
  const [what, file, ...rest] = positionals;
  if (what !== 'rubric' && what !== 'steps') throw new UsageError('expected what to generate: judge-studio generate rubric|steps <template>');
  if (!file || rest.length) throw new UsageError(`expected exactly one template: judge-studio generate ${what} <template>`);
  const strictness = (v.strictness ?? 'balanced') as Strictness;
  if (!STRICTNESS.includes(strictness)) throw new UsageError(`--strictness takes ${STRICTNESS.join(', ')}, got "${v.strictness}"`);
  const structured = (v.structured ?? 'json_schema') as StructuredOutputMode;
  if (!['json_schema', 'json_object', 'none'].includes(structured)) throw new UsageError(`--structured takes json_schema, json_object or none, got "${v.structured}"`);
  const timeoutMs = Number(v.timeout ?? 120_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new UsageError(`--timeout takes a positive number of milliseconds, got "${v.timeout}"`);

  const full = path.resolve(io.cwd, file);
  const text = await readTemplateText(io, file);
  const template = parseTemplate(text);
  const model = v.model ?? template.config?.model.name;
  if (!model) throw new UsageError(`no model: pass --model or set model.name in ${file}`);
  const log = (m: string) => io.stderr(`judge-studio generate: ${m}\n`);
  const endpoint = endpointFromArgs(v, io);
  const client = endpoint.client({ timeoutMs, log });
  const cache = v['no-cache'] ? undefined : new DiskCache(v['cache-dir'] !== undefined ? path.resolve(io.cwd, v['cache-dir']) : defaultCacheDir(io.env));

  const kind: GenerateKind = what;
  log(`asking ${model} at ${endpoint.shownURL} for ${kind === 'rubric' ? 'a rubric' : 'evaluation steps'} (${strictness}${v.domain ? `, domain: ${v.domain}` : ''})`);
  const outcome = await generateSection(template, kind, { strictness, ...(v.domain && { domain: v.domain }) }, {
    client,
    model,
    structured,
    cacheScope: endpoint.cacheScope,
    ...(cache && { cache }),
    ...(io.signal && { signal: io.signal }),
  });
  if (!outcome.ok) {
    log(outcome.message);
    const badInput = outcome.code === 'template-invalid' || outcome.code === 'no-criteria' || outcome.code === 'no-scale';
    return badInput ? EXIT_USAGE : EXIT_FINDINGS;
  }
  const how = [outcome.cached ? 'from the cache' : '', outcome.repaired ? 'after one repair request' : ''].filter(Boolean).join(', ');
  if (v.write) {
    await fs.writeFile(full, outcome.text, 'utf8');
    log(`wrote the new ${kind === 'rubric' ? 'rubric' : 'evaluation steps'} into ${file}${how ? ` (${how})` : ''}; review the diff before you commit it`);
  } else {
    io.stdout(outcome.text);
    log(`printed the template with the new ${kind === 'rubric' ? 'rubric' : 'evaluation steps'}${how ? ` (${how})` : ''}; pass --write to replace ${file}`);
  }
  return EXIT_OK;
};

