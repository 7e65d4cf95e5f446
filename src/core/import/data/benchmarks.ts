// Public meta-evaluation sets, each in its own published format, read into one shape: the fields a
// template judges (prompt + response_a/response_b, or prompt + response) and every human vote.
// The formats (and their sources and licences) are documented in docs/benchmarks.md; nothing of
// their data is in this project.
import type { ImportProblem } from '../types';

export type DataFormat = 'llmbar' | 'judgebench' | 'pandalm' | 'mtbench-human' | 'multi-annotator';
export const DATA_FORMATS: readonly DataFormat[] = ['llmbar', 'judgebench', 'pandalm', 'mtbench-human', 'multi-annotator'];

export type Vote = number | 'A' | 'B' | 'TIE';

export interface BenchmarkRow {
  /** The dataset row (without the human label column). */
  fields: Record<string, unknown>;
  /** The fields a template judges, for `_key` when no template is named. */
  inputs: string[];
  votes: { annotator: string; label: Vote }[];
}

export interface FormatOptions {
  /** multi-annotator: the rating to read from each annotation. */
  dimension?: string;
  /** multi-annotator: the fields that become `prompt` and `response`. */
  promptField?: string;
  responseField?: string;
}

export interface Records {
  /** Each record with where it is (`item 3`, `line 4`). */
  items: { where: string; value: unknown }[];
  problems: ImportProblem[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const text = (v: unknown): v is string => typeof v === 'string';

export const KIND: Record<DataFormat, 'pairwise' | 'pointwise'> = {
  llmbar: 'pairwise',
  judgebench: 'pairwise',
  pandalm: 'pairwise',
  'mtbench-human': 'pairwise',
  'multi-annotator': 'pointwise',
};

const PAIR_INPUTS = ['prompt', 'response_a', 'response_b'];

/** The fields each format holds as text (a prompt, a response): a scalar written there is read as its text. */
const TEXT_FIELDS: Partial<Record<DataFormat, readonly string[]>> = {
  llmbar: ['input', 'output_1', 'output_2'],
  judgebench: ['question', 'response_A', 'response_B'],
  pandalm: ['instruction', 'input', 'response1', 'response2'],
};

/** How many rows a warning names before it says "…". */
export const NAMED_ROWS = 5;

/** The benchmark's rows; a record that is not in the format is reported with where it is and skipped. */
export function benchmarkRows(format: DataFormat, records: Records, opts: FormatOptions): { rows: BenchmarkRow[]; problems: ImportProblem[] } {
  const problems = [...records.problems];
  const rows: BenchmarkRow[] = [];
  const skip = (where: string, message: string) => problems.push({ severity: 'error', where, message: `${message}; skipped` });
  if (format === 'mtbench-human') return mtbenchRows(records, problems);
  const coerced: string[] = [];
  for (const { where, value } of records.items) {
    const found = obj(value);
    if (!found) {
      skip(where, 'not a JSON object');
      continue;
    }
    const { record: r, fields } = asTexts(found, TEXT_FIELDS[format] ?? []);
    const row = format === 'llmbar' ? llmbar(r) : format === 'judgebench' ? judgebench(r) : format === 'pandalm' ? pandalm(r) : multiAnnotator(r, opts);
    if (typeof row === 'string') skip(where, row);
    else {
      rows.push(row);
      if (fields.length > 0) coerced.push(`${where} (${fields.join(', ')})`);
    }
  }
  if (coerced.length > 0) {
    // PandaLM's test set has six responses written as the JSON value `true`: they are a model's answer, kept as text.
    problems.push({
      severity: 'warning',
      where: 'rows',
      message:
        `${coerced.length} row(s) have a number or true/false where text belongs, read as its text (true → "true", 3 → "3"): ${named(coerced)}; ` +
        'null is read as absent (an empty "input"; a missing response skips its row)',
    });
  }
  return { rows, problems };
}

/** The first few of a list, then how many more. */
export function named(list: readonly string[]): string {
  return list.length > NAMED_ROWS ? `${list.slice(0, NAMED_ROWS).join(', ')}, … (${list.length} in all)` : list.join(', ');
}

/** The record with each text field that holds a number or a boolean replaced by its text, and the fields replaced. */
function asTexts(r: Obj, names: readonly string[]): { record: Obj; fields: string[] } {
  const fields = names.filter((k) => typeof r[k] === 'boolean' || (typeof r[k] === 'number' && Number.isFinite(r[k])));
  if (fields.length === 0) return { record: r, fields };
  const record = { ...r };
  for (const k of fields) record[k] = String(r[k]);
  return { record, fields };
}

/** LLMBar: `{input, output_1, output_2, label}`, label 1 or 2 naming the better output. */
function llmbar(r: Obj): BenchmarkRow | string {
  if (!text(r.input) || !text(r.output_1) || !text(r.output_2)) return 'needs text fields "input", "output_1" and "output_2"';
  const label = String(r.label);
  if (label !== '1' && label !== '2') return `"label" is ${JSON.stringify(r.label)}, not 1 or 2`;
  // A row that names its subset keeps it (`set`), so `calibrate --by set` reports LLMBar's five sets.
  const set = text(r.set) ? { set: r.set } : {};
  return { fields: { prompt: r.input, response_a: r.output_1, response_b: r.output_2, ...set }, inputs: PAIR_INPUTS, votes: [{ annotator: 'llmbar', label: label === '1' ? 'A' : 'B' }] };
}

/** LLMBar's subsets, named by the folder its files sit in (Dataset/LLMBar/Natural/dataset.json, …/Adversarial/Neighbor/…). */
export const LLMBAR_SETS: readonly string[] = ['Natural', 'Neighbor', 'GPTInst', 'GPTOut', 'Manual'];

/** JudgeBench's categories of its `source` field, as its own reporting groups them. */
export function judgebenchCategory(source: unknown): string | undefined {
  if (typeof source !== 'string') return undefined;
  if (source.startsWith('mmlu-pro')) return 'knowledge';
  if (source.startsWith('livebench-reasoning')) return 'reasoning';
  if (source.startsWith('livebench-math')) return 'math';
  if (source.startsWith('livecodebench')) return 'coding';
  return undefined;
}

/** JudgeBench: `{pair_id, question, response_A, response_B, label}` with label "A>B" or "B>A". */
function judgebench(r: Obj): BenchmarkRow | string {
  if (!text(r.question) || !text(r.response_A) || !text(r.response_B)) return 'needs text fields "question", "response_A" and "response_B"';
  const label = r.label === 'A>B' ? 'A' : r.label === 'B>A' ? 'B' : r.label === 'A=B' ? 'TIE' : undefined;
  if (!label) return `"label" is ${JSON.stringify(r.label)}, not "A>B" or "B>A"`;
  const category = judgebenchCategory(r.source);
  const extra = { ...pick(r, ['pair_id', 'original_id', 'source', 'response_model']), ...(category ? { category } : {}) };
  return { fields: { prompt: r.question, response_a: r.response_A, response_b: r.response_B, ...extra }, inputs: PAIR_INPUTS, votes: [{ annotator: 'judgebench', label }] };
}

/** PandaLM's test set: `{instruction, input, response1, response2, annotator1..3}`, 0 = tie, 1, 2. */
function pandalm(r: Obj): BenchmarkRow | string {
  if (!text(r.instruction) || !text(r.response1) || !text(r.response2)) return 'needs text fields "instruction", "response1" and "response2"';
  if (r.input !== undefined && r.input !== null && !text(r.input)) return '"input" is not text';
  const votes: BenchmarkRow['votes'] = [];
  for (const key of Object.keys(r).filter((k) => /^annotator\d+$/.test(k)).sort()) {
    const v = String(r[key]);
    if (v !== '0' && v !== '1' && v !== '2') return `"${key}" is ${JSON.stringify(r[key])}, not 0 (tie), 1 or 2`;
    votes.push({ annotator: `pandalm:${key}`, label: v === '0' ? 'TIE' : v === '1' ? 'A' : 'B' });
  }
  if (votes.length === 0) return 'has no "annotator1"… labels';
  // PandaLM's judge reads the instruction and its input as separate sections; both are kept.
  const fields = { prompt: r.instruction, input: r.input ?? '', response_a: r.response1, response_b: r.response2, ...pick(r, ['idx', 'motivation_app', 'cmp_key']) };
  return { fields, inputs: ['prompt', 'input', 'response_a', 'response_b'], votes };
}

/** A JSONL of rows with `annotations: [{dimension: rating, …}, …]` (DialSummEval's shape). */
function multiAnnotator(r: Obj, opts: FormatOptions): BenchmarkRow | string {
  const dim = opts.dimension ?? '';
  const promptField = opts.promptField ?? 'prompt';
  const responseField = opts.responseField ?? 'response';
  if (!Array.isArray(r.annotations)) return 'has no "annotations" list';
  if (r[responseField] === undefined) return `has no "${responseField}" field (the response judged; choose it with --response-field)`;
  const votes: BenchmarkRow['votes'] = [];
  for (const [i, a] of r.annotations.entries()) {
    const ann = obj(a);
    const v = ann?.[dim];
    if (v === undefined || v === null) continue; // an annotator who did not rate this dimension
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n)) return `annotations[${i}].${dim} is ${JSON.stringify(v)}, not a number`;
    const who = typeof ann?.annotator === 'string' && ann.annotator !== '' ? ann.annotator : `annotator${i + 1}`;
    votes.push({ annotator: who, label: n });
  }
  const fields: Obj = {};
  for (const [k, v] of Object.entries(r)) {
    if (k === 'annotations') continue;
    fields[k === promptField ? 'prompt' : k === responseField ? 'response' : k] = v;
  }
  return { fields, inputs: fields.prompt !== undefined ? ['prompt', 'response'] : ['response'], votes };
}

/**
 * MT-Bench human judgments: one record per judge and judged turn, `{question_id, model_a, model_b,
 * winner, judge, conversation_a, conversation_b, turn}`; the records of one pair and turn are one
 * row, every judge a vote (winner model_a → A, model_b → B, tie and "tie (bothbad)" → TIE).
 */
function mtbenchRows(records: Records, problems: ImportProblem[]): { rows: BenchmarkRow[]; problems: ImportProblem[] } {
  const groups = new Map<string, BenchmarkRow>();
  const seen = new Map<string, Map<string, number>>();
  for (const { where, value } of records.items) {
    const r = obj(value);
    const row = r ? mtbenchRecord(r) : 'not a JSON object';
    if (typeof row === 'string') {
      problems.push({ severity: 'error', where, message: `${row}; skipped` });
      continue;
    }
    const id = JSON.stringify([row.fields.question_id, row.fields.model_a, row.fields.model_b, row.fields.turn, row.fields.response_a, row.fields.response_b]);
    const group = groups.get(id);
    if (!group) groups.set(id, row);
    const judge = row.votes[0]!.annotator;
    // A judge who judged the same pair twice gets both votes, as a second annotator name.
    const counts = seen.get(id) ?? new Map<string, number>();
    const k = (counts.get(judge) ?? 0) + 1;
    counts.set(judge, k);
    seen.set(id, counts);
    if (group) group.votes.push({ annotator: k > 1 ? `${judge}#${k}` : judge, label: row.votes[0]!.label });
  }
  return { rows: [...groups.values()], problems };
}

function mtbenchRecord(r: Obj): BenchmarkRow | string {
  const turn = Number(r.turn);
  if (turn !== 1 && turn !== 2) return `"turn" is ${JSON.stringify(r.turn)}, not 1 or 2`;
  const a = turnOf(r.conversation_a, turn);
  const b = turnOf(r.conversation_b, turn);
  if (typeof a === 'string') return `conversation_a: ${a}`;
  if (typeof b === 'string') return `conversation_b: ${b}`;
  const w = r.winner;
  const label = w === 'model_a' ? 'A' : w === 'model_b' ? 'B' : w === 'tie' || w === 'tie (bothbad)' ? 'TIE' : undefined;
  if (!label) return `"winner" is ${JSON.stringify(w)}, not model_a, model_b or tie`;
  if (!text(r.judge) || r.judge === '') return 'has no "judge"';
  const fields = { prompt: a.question, response_a: a.answer, response_b: b.answer, question_id: r.question_id, turn, model_a: r.model_a, model_b: r.model_b, conversation_a: r.conversation_a, conversation_b: r.conversation_b };
  return { fields, inputs: PAIR_INPUTS, votes: [{ annotator: `mtbench:${r.judge}`, label }] };
}

/** The user question and assistant answer of turn 1 or 2 in `[{role, content}, …]`. */
function turnOf(conversation: unknown, turn: number): { question: string; answer: string } | string {
  if (!Array.isArray(conversation)) return 'not a list of messages';
  const users = conversation.filter((m) => obj(m)?.role === 'user');
  const assistants = conversation.filter((m) => obj(m)?.role === 'assistant');
  const q = obj(users[turn - 1])?.content;
  const ans = obj(assistants[turn - 1])?.content;
  if (!text(q) || !text(ans)) return `has no user question and assistant answer for turn ${turn}`;
  return { question: q, answer: ans };
}

function pick(r: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  for (const k of keys) if (r[k] !== undefined) out[k] = r[k];
  return out;
}
