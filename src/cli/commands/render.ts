import path from 'node:path';
import { parseArgs } from 'node:util';
import { isSkip, readDataset } from '../../core/dataset';
import { renderTemplate } from '../../core/template';
import { EXIT_FINDINGS, EXIT_OK, UsageError, type Command } from '../io';
import { loadValidTemplate } from '../template';
import { RENDER_OPTIONS } from '../options/checking';

export const renderCommand: Command = async (args, io) => {
  const { values, positionals } = parseArgs({
    args,
    options: RENDER_OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  const [file, ...extra] = positionals;
  if (!file || extra.length) throw new UsageError('render: usage `judge-studio render <template> --data <file> [--row N] [--swap] [--json]`');
  if (!values.data) throw new UsageError('render: --data <file> is required (a .jsonl, .json or .csv dataset)');
  const row = Number(values.row);
  if (!Number.isInteger(row) || row < 1) throw new UsageError(`render: --row must be a positive integer, got "${values.row}"`);
  const loaded = await loadValidTemplate(file, io);
  if (!loaded) return EXIT_FINDINGS;
  if (values.swap && loaded.template.config?.kind !== 'pairwise') throw new UsageError('render: --swap applies to pairwise templates only');

  let found;
  let rows = 0;
  try {
    for await (const item of readDataset(path.resolve(io.cwd, values.data))) {
      rows = item.row;
      if (item.row === row) {
        found = item;
        break;
      }
    }
  } catch (e) {
    throw new UsageError(`${values.data}: ${(e as Error).message}`);
  }
  if (!found) throw new UsageError(`${values.data}: there is no row ${row} (the file has ${rows} row${rows === 1 ? '' : 's'})`);
  if (isSkip(found)) {
    io.stderr(`${values.data}:${found.line}: ${found.error}\n`);
    return EXIT_FINDINGS;
  }
  const outcome = renderTemplate(loaded.template, found.record, { row, swap: values.swap });
  if (!outcome.ok) {
    io.stderr(`${values.data}:${found.line}: ${outcome.error}\n`);
    return EXIT_FINDINGS;
  }
  const { messages } = outcome.prompt;
  if (values.json) io.stdout(JSON.stringify({ messages }, null, 2) + '\n');
  else for (const m of messages) io.stdout(`----- ${m.role} -----\n${m.content}\n`);
  return EXIT_OK;
};
