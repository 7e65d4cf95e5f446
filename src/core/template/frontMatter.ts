// Front matter: find the `---` block, parse YAML with positions, validate it with zod and point
// every problem at its YAML line.
import { isMap, isPair, isScalar, isSeq, parseDocument, visit, type Document, type Node } from 'yaml';
import { z } from 'zod';
import type { Diagnostic } from '../diagnostics';
import type { LineIndex } from '../text';
import type { FrontMatter, TemplateConfig } from './types';
import { closest } from './suggest';
import { RESERVED_CRITERION_NAMES } from './criteria';
import { labelList, realRange, refineScoring, sourceSchema } from './scoring';
import { VERDICT_FORMATS } from '../verdict/formats/registry';
import { VERDICT_FORMAT_NAMES, VERDICT_MATCHES, type VerdictFormat } from '../verdict/types';

const IDENT = /^[a-z][a-z0-9_]*$/;
const VERDICT_FORMAT_MESSAGE = `must be ${orList(VERDICT_FORMAT_NAMES.map((f) => JSON.stringify(f)))}`;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

const intRange = z.union([
  z.tuple([z.number().int(), z.number().int()]).transform(([min, max]) => ({ min, max })),
  z.object({ min: z.number().int(), max: z.number().int() }).strict(),
]).refine((r) => r.min < r.max, { message: 'the first number must be smaller than the second, e.g. [1, 5]' });

const provenance = z
  .object({ model: z.string().min(1), date: z.string().min(1), domain: z.string().optional(), strictness: z.enum(['lenient', 'balanced', 'strict']).optional() })
  .strict();

const figureOrNull = z.number().nullable();
const alignment = z
  .object({
    candidate: z.string().min(1),
    kind: z.enum(['examples', 'rubric', 'combined']),
    seed: z.number().int(),
    split: z.object({ train: z.number().int().nonnegative(), heldout: z.number().int().nonnegative() }).strict(),
    examples: z.array(z.string()).optional(),
    drafted_justifications: z.array(z.string()).optional(),
    author_model: z.string().optional(),
    date: z.string().optional(),
    heldout: z
      .object({ n: z.number().int().nonnegative(), accuracy: figureOrNull, baseline_accuracy: figureOrNull, delta: figureOrNull, ci: z.tuple([z.number(), z.number()]).nullable(), mcnemar_p: figureOrNull, overfit: z.boolean().nullable() })
      .strict()
      .optional(),
  })
  .strict();

const judgeMember = z
  .object({
    model: z.string().min(1, 'name the judge model'),
    // A base URL (http…) or the name of an endpoint (CLI --endpoint NAME=URL, editor setting).
    endpoint: z.string().min(1).optional(),
  })
  .strict();

export const frontMatterSchema = z
  .object({
    name: z.string().regex(IDENT, 'use lower case letters, digits and _, starting with a letter (e.g. helpfulness)'),
    kind: z.enum(['pointwise', 'pairwise'], { message: 'must be "pointwise" or "pairwise"' }),
    description: z.string().optional(),
    scale: intRange.optional(),
    // Categorical and continuous verdicts, and a pass/fail view of either (see scoring.ts).
    range: realRange.optional(),
    labels: labelList.optional(),
    passing_labels: labelList.optional(),
    pass_threshold: z.number().optional(),
    source: sourceSchema.optional(),
    inputs: z.array(z.string().regex(FIELD, 'an input is a dataset field name: letters, digits and _')).optional(),
    model: z
      .object({
        name: z.string().min(1).optional(),
        temperature: z.number().min(0).max(2).optional(),
        max_tokens: z.number().int().positive().optional(),
        swap: z.boolean().optional(),
        // A panel of judges (issue #12): each member a model, optionally at another endpoint.
        judges: z.array(judgeMember).min(1, 'a panel needs at least one judge').optional(),
        min_judges: z.number().int().min(1).optional(),
        // G-Eval's probability-weighted score (needs token logprobs from the endpoint).
        scoring: z.enum(['expected'], { message: 'the only scoring option is "expected"' }).optional(),
      })
      .strict()
      .optional(),
    // The dataset field naming the model that wrote the judged response (self-judging guard).
    generator_field: z.string().regex(FIELD, 'a dataset field name: letters, digits and _').optional(),
    dimensions: z
      .array(z.object({ name: z.string().regex(IDENT, 'use lower case letters, digits and _'), description: z.string().min(1) }).strict())
      .min(1)
      .optional(),
    // Multi-criterion pointwise (direct scoring with weights): see criteria.ts.
    criteria: z
      .array(z.object({ name: z.string().regex(IDENT, 'use lower case letters, digits and _'), description: z.string().min(1), weight: z.number() }).strict())
      .min(1)
      .optional(),
    ranking: intRange.optional(),
    degrees: z.array(z.string().min(1)).min(2).optional(),
    // Verdict formats and free-form prompts (bring your own judge prompt).
    verdict: z
      .union([
        z.enum(VERDICT_FORMAT_NAMES, { message: VERDICT_FORMAT_MESSAGE }).transform((format) => ({ format })),
        z
          .object({
            format: z.enum(VERDICT_FORMAT_NAMES, { message: VERDICT_FORMAT_MESSAGE }),
            pattern: z.string().min(1).optional(),
            flags: z.string().optional(),
            fields: z
              .object({ score: z.string().min(1).optional(), winner: z.string().min(1).optional(), label: z.string().min(1).optional(), justification: z.string().min(1).optional(), steps: z.string().min(1).optional() })
              .strict()
              .optional(),
            values: z.record(z.string(), z.union([z.number().int(), z.string()])).optional(),
            gate: z.object({ field: z.string().min(1), min: z.number(), otherwise: z.number() }).strict().optional(),
            match: z.enum(VERDICT_MATCHES, { message: 'must be "first", "last" or "unique"' }).optional(),
            structured: z.boolean().optional(),
          })
          .strict(),
      ])
      .optional(),
    freeform: z.boolean().optional(),
    system: z.string().optional(),
    // How the two orders of a pairwise judgment become one verdict (issue 31).
    swap_rule: z.enum(['consistent', 'votes'], { message: 'must be "consistent" (the orders must agree, else TIE) or "votes" (each order is one vote)' }).optional(),
    pair: z.object({ a: z.array(z.string().regex(FIELD, 'a dataset field name')).min(1), b: z.array(z.string().regex(FIELD, 'a dataset field name')).min(1) }).strict().optional(),
    // What wrote a generated section (Generate Rubric / Evaluation Steps), for a later reader.
    generated: z
      .object({ rubric: provenance.optional(), steps: provenance.optional() })
      .strict()
      .optional(),
    // Where an aligned candidate came from (judge-studio align, issue #24), for the reviewer of the change.
    aligned_from: z.string().regex(/^[0-9a-f]{6,64}$/, 'the template hash the candidate was aligned from').optional(),
    alignment: alignment.optional(),
  })
  .strict()
  .superRefine((fm, ctx) => {
    refineScoring(fm, ctx);
    if (fm.kind === 'pointwise') {
      if (!fm.scale && !fm.range && !fm.labels) ctx.addIssue({ code: 'custom', path: ['kind'], message: 'a pointwise template needs a `scale`, e.g. `scale: [1, 5]` (or `[0, 1]` for pass/fail), a `range` for a continuous score, or `labels` for a categorical verdict' });
      for (const key of ['dimensions', 'ranking', 'degrees'] as const) {
        if (fm[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: `\`${key}\` belongs to pairwise templates; remove it or set \`kind: pairwise\`` });
      }
      if (fm.model?.swap !== undefined) ctx.addIssue({ code: 'custom', path: ['model', 'swap'], message: '`swap` applies to pairwise templates only; remove it' });
    } else {
      if (fm.scale) ctx.addIssue({ code: 'custom', path: ['scale'], message: 'a pairwise template has no score scale (its verdict is A, B or TIE); remove `scale`' });
      if (fm.criteria) ctx.addIssue({ code: 'custom', path: ['criteria'], message: '`criteria` belongs to pointwise templates (pairwise ones declare `dimensions`); set `kind: pointwise` or use `dimensions`' });
      if (fm.model?.scoring) ctx.addIssue({ code: 'custom', path: ['model', 'scoring'], message: '`scoring: expected` weighs a score scale; a pairwise template has none' });
    }
    const judges = fm.model?.judges;
    if (fm.model?.min_judges !== undefined && (!judges || fm.model.min_judges > judges.length)) {
      ctx.addIssue({
        code: 'custom',
        path: ['model', 'min_judges'],
        message: judges ? `\`min_judges\` (${fm.model.min_judges}) is more than the ${judges.length} judge(s) of the panel` : '`min_judges` needs a panel: list the judges under `model.judges`',
      });
    }
    const criteria = new Set<string>();
    fm.criteria?.forEach((c, i) => {
      if (RESERVED_CRITERION_NAMES.includes(c.name)) ctx.addIssue({ code: 'custom', path: ['criteria', i, 'name'], message: `"${c.name}" is reserved (its column score_${c.name} means something else); choose another name` });
      if (criteria.has(c.name)) ctx.addIssue({ code: 'custom', path: ['criteria', i, 'name'], message: `criterion "${c.name}" is declared twice` });
      criteria.add(c.name);
    });
    if ((fm.ranking || fm.degrees) && !fm.dimensions) {
      ctx.addIssue({ code: 'custom', path: [fm.ranking ? 'ranking' : 'degrees'], message: '`ranking` and `degrees` need `dimensions`; declare the dimensions in priority order' });
    }
    const seen = new Set<string>();
    fm.dimensions?.forEach((d, i) => {
      if (seen.has(d.name)) ctx.addIssue({ code: 'custom', path: ['dimensions', i, 'name'], message: `dimension "${d.name}" is declared twice` });
      seen.add(d.name);
    });
    const verdict: { format: VerdictFormat; pattern?: string; flags?: string; fields?: { justification?: string; steps?: string; label?: string }; values?: unknown; gate?: unknown; match?: string; structured?: boolean } | undefined = fm.verdict;
    const takes = verdict && VERDICT_FORMATS[verdict.format].takes;
    if (verdict?.fields?.steps !== undefined && verdict.fields.justification !== undefined) ctx.addIssue({ code: 'custom', path: ['verdict', 'fields', 'steps'], message: '`steps` and `justification` both name where the reasoning is; keep one' });
    if (verdict?.fields?.label !== undefined && !fm.labels) ctx.addIssue({ code: 'custom', path: ['verdict', 'fields', 'label'], message: '`fields.label` names the reply field of a categorical verdict; it needs `labels`' });
    if (verdict?.structured !== undefined && (!takes?.structured || verdict.values !== undefined || verdict.gate !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['verdict', 'structured'], message: '`structured` asks for a `json` verdict by its JSON schema; a verdict with `values` or `gate` (or another format) is read from what the judge writes, so it has no schema' });
    }
    // The messages below name the formats that take each key: update them with `takes`.
    if (verdict?.match !== undefined && !takes?.match) ctx.addIssue({ code: 'custom', path: ['verdict', 'match'], message: '`match` chooses among the verdicts a text reply writes (`regex`, `tagged`, `prometheus`); a `json` verdict is one object' });
    if (verdict?.gate !== undefined && (!takes?.gate || fm.kind !== 'pointwise')) ctx.addIssue({ code: 'custom', path: ['verdict', 'gate'], message: '`gate` belongs to a pointwise `json` verdict' });
    if (verdict?.fields && !takes?.fields) ctx.addIssue({ code: 'custom', path: ['verdict', 'fields'], message: '`fields` renames the fields of a `json` verdict' });
    if (verdict?.values && !takes?.values) ctx.addIssue({ code: 'custom', path: ['verdict', 'values'], message: `\`values\` maps what a \`json\` or \`regex\` verdict reads; a ${verdict.format} verdict needs none` });
    if (verdict && takes?.pattern && !verdict.pattern) ctx.addIssue({ code: 'custom', path: ['verdict', 'format'], message: 'a `regex` verdict needs a `pattern` with a named group, e.g. `pattern: "Score: (?<score>\\d+)"`' });
    if (verdict && !takes?.pattern && (verdict.pattern !== undefined || verdict.flags !== undefined)) ctx.addIssue({ code: 'custom', path: ['verdict', verdict.pattern !== undefined ? 'pattern' : 'flags'], message: '`pattern` and `flags` belong to `format: regex`' });
    if (fm.verdict && fm.verdict.format !== 'json' && fm.dimensions) ctx.addIssue({ code: 'custom', path: ['verdict'], message: 'a multi-dimension template replies in JSON; remove `verdict` or `dimensions`' });
    if (fm.swap_rule !== undefined && fm.kind !== 'pairwise') ctx.addIssue({ code: 'custom', path: ['swap_rule'], message: '`swap_rule` says how the two orders of a pairwise judgment combine; remove it or set `kind: pairwise`' });
    if (fm.swap_rule === 'votes' && fm.dimensions) ctx.addIssue({ code: 'custom', path: ['swap_rule'], message: '`swap_rule: votes` applies to single-verdict pairwise templates; a multi-dimension template merges its orders per dimension' });
    if (fm.pair && fm.kind !== 'pairwise') ctx.addIssue({ code: 'custom', path: ['pair'], message: '`pair` names the fields a pairwise swap exchanges; it belongs to pairwise templates' });
    if (fm.pair && fm.pair.a.length !== fm.pair.b.length) ctx.addIssue({ code: 'custom', path: ['pair'], message: '`pair.a` and `pair.b` must list the same number of fields (the swap exchanges a[i] with b[i])' });
    const inputs = new Set<string>();
    fm.inputs?.forEach((name, i) => {
      if (inputs.has(name)) ctx.addIssue({ code: 'custom', path: ['inputs', i], message: `input "${name}" is listed twice` });
      inputs.add(name);
    });
  });

const OPEN = /^\uFEFF?---[ \t]*(?:\r\n|\n|\r|$)/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

export interface FrontMatterResult {
  frontMatter: FrontMatter | null;
  config: TemplateConfig | null;
  bodyStart: number;
  diagnostics: Diagnostic[];
}

export function parseFrontMatter(text: string, index: LineIndex): FrontMatterResult {
  const diagnostics: Diagnostic[] = [];
  const open = OPEN.exec(text);
  if (!open) {
    diagnostics.push({
      ...index.span(0, index.lineEnd(1)),
      severity: 'error',
      code: 'front-matter-missing',
      message: 'A template starts with front matter between `---` lines, e.g. `---` / `name: helpfulness` / `kind: pointwise` / `scale: [1, 5]` / `---`; add it at the top of the file.',
    });
    return { frontMatter: null, config: null, bodyStart: text.charCodeAt(0) === 0xfeff ? 1 : 0, diagnostics };
  }
  const start = open[0].length;
  let closeLine = -1;
  for (let line = 2; line <= index.lineCount; line++) {
    if (CLOSE.test(index.lineText(line))) {
      closeLine = line;
      break;
    }
  }
  if (closeLine < 0) {
    diagnostics.push({
      ...index.span(0, index.lineEnd(1)),
      severity: 'error',
      code: 'front-matter-invalid',
      message: 'The front matter opened here is never closed; add a `---` line after its last key.',
    });
    return { frontMatter: null, config: null, bodyStart: start, diagnostics };
  }
  const end = index.lineStart(closeLine);
  const bodyStart = Math.min(text.length, index.lineEnd(closeLine) + lineBreakLength(text, index.lineEnd(closeLine)));
  const yamlText = text.slice(start, end);
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  // A YAML error can sit on the \r of a CRLF; a span must not end between the \r and the \n.
  const whole = (o: number) => (text.charCodeAt(o) === 10 && text.charCodeAt(o - 1) === 13 ? o - 1 : o);
  for (const err of [...doc.errors, ...doc.warnings]) {
    const [a, b] = err.pos;
    diagnostics.push({
      ...index.span(whole(start + a), whole(start + Math.max(a + 1, b))),
      severity: 'error',
      code: 'front-matter-invalid',
      message: `YAML: ${firstLine(err.message)}`,
    });
  }
  if (doc.errors.length) return { frontMatter: { start, end, data: null }, config: null, bodyStart, diagnostics };

  let data: unknown;
  try {
    data = doc.toJS();
  } catch (e) {
    // toJS throws on an alias with no anchor, and on alias expansion bombs; neither is a doc.error.
    const alias = aliasRange(doc);
    diagnostics.push({
      ...(alias ? index.span(start + alias[0], start + alias[1]) : index.span(0, 3)),
      severity: 'error',
      code: 'front-matter-invalid',
      message: `YAML: ${firstLine((e as Error).message)}; write the value out instead of using \`*alias\`.`,
    });
    return { frontMatter: { start, end, data: null }, config: null, bodyStart, diagnostics };
  }
  const frontMatter: FrontMatter = { start, end, data };
  if (data === null || data === undefined || typeof data !== 'object' || Array.isArray(data)) {
    diagnostics.push({
      ...index.span(0, index.lineEnd(1)),
      severity: 'error',
      code: 'front-matter-invalid',
      message: 'The front matter must be a YAML mapping with at least `name` and `kind`.',
    });
    return { frontMatter, config: null, bodyStart, diagnostics };
  }
  const parsed = frontMatterSchema.safeParse(data);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) diagnostics.push(issueDiagnostic(issue, doc, index, start));
    return { frontMatter, config: null, bodyStart, diagnostics };
  }
  const fm = parsed.data;
  const config: TemplateConfig = {
    name: fm.name,
    kind: fm.kind,
    model: { ...fm.model, swap: fm.model?.swap ?? true },
    ...(fm.scale && { scale: fm.scale }),
    ...(fm.range && { scale: { ...fm.range, continuous: true as const } }),
    ...(fm.labels && { labels: fm.labels }),
    ...(fm.passing_labels && { passing_labels: fm.passing_labels }),
    ...(fm.pass_threshold !== undefined && { pass_threshold: fm.pass_threshold }),
    ...(fm.source && { source: fm.source }),
    ...(fm.inputs && { inputs: fm.inputs }),
    ...(fm.dimensions && { dimensions: fm.dimensions }),
    ...(fm.criteria && { criteria: fm.criteria }),
    ...(fm.ranking && { ranking: fm.ranking }),
    ...(fm.degrees && { degrees: fm.degrees }),
    ...(fm.verdict && { verdict: fm.verdict }),
    ...(fm.freeform !== undefined && { freeform: fm.freeform }),
    ...(fm.system !== undefined && { system: fm.system }),
    ...(fm.pair && { pair: fm.pair }),
    ...(fm.generator_field && { generator_field: fm.generator_field }),
    ...(fm.swap_rule && { swap_rule: fm.swap_rule }),
  };
  return { frontMatter, config, bodyStart, diagnostics };
}

/** The first alias with no anchor before it, else the first alias. */
function aliasRange(doc: Document): [number, number] | undefined {
  let first: [number, number] | undefined;
  let unresolved: [number, number] | undefined;
  visit(doc, {
    Alias(_key, node) {
      const range: [number, number] | undefined = node.range ? [node.range[0], node.range[1]] : undefined;
      first ??= range;
      if (!unresolved && !node.resolve(doc)) unresolved = range;
    },
  });
  return unresolved ?? first;
}

function lineBreakLength(text: string, at: number): number {
  if (text.startsWith('\r\n', at)) return 2;
  return at < text.length ? 1 : 0;
}

/** "a", "b" or "c": the way messages list choices. */
function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

const KNOWN_KEYS = ['name', 'kind', 'description', 'scale', 'range', 'labels', 'passing_labels', 'pass_threshold', 'source', 'inputs', 'model', 'dimensions', 'ranking', 'degrees', 'generated', 'verdict', 'freeform', 'system', 'pair', 'swap_rule', 'generator_field', 'criteria', 'aligned_from', 'alignment'];
const MODEL_KEYS = ['name', 'temperature', 'max_tokens', 'swap', 'judges', 'min_judges', 'scoring'];

/** Point a zod issue at the YAML node it is about: the value, else the key, else the `---` line. */
function issueDiagnostic(issue: z.core.$ZodIssue, doc: Document, index: LineIndex, start: number): Diagnostic {
  const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  // `verdict` is a format name or a mapping: a mapping with a bad member reports that member.
  if (issue.code === 'invalid_union') {
    const branch = issue.errors.find((errs) => errs.length > 0 && errs.every((e) => e.path.length > 0));
    if (branch?.[0]) return issueDiagnostic({ ...branch[0], path: [...issue.path, ...branch[0].path] }, doc, index, start);
  }
  let message = issue.message;
  let range: [number, number] | undefined;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const known = path.length === 1 && path[0] === 'model' ? MODEL_KEYS : path.length === 0 ? KNOWN_KEYS : [];
    const guess = closest(key, known);
    message = `Unknown key \`${key}\`${guess ? `; did you mean \`${guess}\`?` : `; known keys: ${known.join(', ')}`}`;
    range = keyRange(doc, [...path, key]);
  } else {
    const field = path.length ? `\`${path.join('.')}\`: ` : '';
    if (issue.code === 'invalid_type' && issue.input === undefined) message = `${field}required; add it`;
    else message = `${field}${message}`;
    range = nodeRange(doc, path) ?? keyRange(doc, path);
  }
  const [a, b] = range ?? [0, 0];
  const span = range ? index.span(start + a, start + b) : index.span(0, 3);
  return { ...span, severity: 'error', code: 'front-matter-invalid', message };
}

function nodeRange(doc: Document, path: (string | number)[]): [number, number] | undefined {
  if (!path.length) return undefined;
  const node = doc.getIn(path, true) as Node | undefined;
  if (node && (isScalar(node) || isMap(node) || isSeq(node)) && node.range) return [node.range[0], node.range[1]];
  return undefined;
}

/** The key text of the deepest existing pair along `path`. */
function keyRange(doc: Document, path: (string | number)[]): [number, number] | undefined {
  let node: unknown = doc.contents;
  let found: [number, number] | undefined;
  for (const step of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === step);
      if (!pair || !isScalar(pair.key) || !pair.key.range) break;
      found = [pair.key.range[0], pair.key.range[1]];
      node = pair.value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as Node | undefined;
      if (!item || !('range' in item) || !item.range) break;
      found = [item.range[0], item.range[1]];
      node = item;
    } else break;
  }
  return found;
}
