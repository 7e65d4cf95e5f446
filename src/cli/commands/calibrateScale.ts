// Which labels a metric allows, for `calibrate`: the scale of `--template T`, else of the one
// template under the working directory named after the metric that judged the file (its
// template_hash matches the file's). Without either, labels are not checked and calibrate says so
// when some look out of place.
import { readTemplateText } from '../template';
import path from 'node:path';
import { scaleOf, type LabelScale } from '../../core/calibration/scale';
import { isSkip, type DatasetItem } from '../../core/dataset/types';
import { templatesForMetric } from '../../core/labels/templates';
import { templateHash } from '../../core/results/keys';
import { parseTemplate } from '../../core/template';
import { UsageError, type CliIO } from '../io';

export async function labelScale(io: CliIO, file: string, metric: string, template: string | undefined, items: Iterable<DatasetItem>): Promise<LabelScale | undefined> {
  if (template) {
    const text = await readTemplateText(io, template);
    const config = parseTemplate(text).config;
    if (!config) throw new UsageError(`${template}: the front matter does not validate (judge-studio validate ${template} says why), so its scale is unknown`);
    return scaleOf(config, template);
  }
  const found = await templatesForMetric(io.cwd, metric);
  if (found.length !== 1 || !found[0]?.template.config) return undefined;
  const shown = path.relative(io.cwd, found[0].file);
  const judgedWith = firstHash(items, metric);
  if (judgedWith !== undefined && judgedWith !== templateHash(found[0].template.text)) {
    io.stderr(`calibrate: ${shown} is not the template version that judged ${file} (its template_hash differs), so labels are not checked against its scale; pass --template T to check them\n`);
    return undefined;
  }
  return scaleOf(found[0].template.config, shown);
}

/** `m/template_hash` of the first row that has one. */
function firstHash(items: Iterable<DatasetItem>, metric: string): string | undefined {
  const column = `${metric}/template_hash`;
  for (const item of items) {
    if (isSkip(item)) continue;
    const hash = item.record[column];
    if (typeof hash === 'string') return hash;
  }
  return undefined;
}
