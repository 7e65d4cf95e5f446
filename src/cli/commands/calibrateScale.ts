// Which labels a metric allows, for `calibrate`: the scale (and passing labels) of `--template T`,
// else of the one template under the working directory named after the metric that judged the
// file (core/calibration/templateScale.ts). Without either, labels are not checked and calibrate
// says so when some look out of place.
import path from 'node:path';
import { fromConfig, fromFound, type TemplateScale } from '../../core/calibration/templateScale';
import type { DatasetItem } from '../../core/dataset/types';
import { templatesForMetric, type FoundTemplate } from '../../core/labels/templates';
import { UsageError, type CliIO } from '../io';

/**
 * Starts looking for the metric's templates under the working directory (nothing to look for with
 * `--template`), so the walk of a large workspace runs while the results file is being read.
 */
export function searchTemplates(io: CliIO, metric: string, template: string | undefined): Promise<FoundTemplate[]> | undefined {
  if (template) return undefined;
  const found = templatesForMetric(io.cwd, metric);
  // labelScale awaits it; until then a failure must not count as unhandled.
  found.catch(() => undefined);
  return found;
}

export async function labelScale(
  io: CliIO,
  file: string,
  metric: string,
  template: string | undefined,
  items: Iterable<DatasetItem>,
  search: Promise<FoundTemplate[]> | undefined,
): Promise<TemplateScale> {
  if (template) {
    const [{ parseTemplate }, { readTemplateText }] = await Promise.all([import('../../core/template'), import('../template')]);
    const config = parseTemplate(await readTemplateText(io, template)).config;
    if (!config) throw new UsageError(`${template}: the front matter does not validate (judge-studio validate ${template} says why), so its scale is unknown`);
    return fromConfig(config, template);
  }
  const found = (await search) ?? [];
  const outcome = fromFound(found, items, metric, (f) => path.relative(io.cwd, f), file);
  if (outcome.note) io.stderr(`calibrate: ${outcome.note}\n`);
  return outcome;
}
