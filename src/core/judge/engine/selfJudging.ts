// The self-judging guard (seed 3: self-enhancement bias): when the template names the dataset field
// holding the model that wrote the judged response (`generator_field`), a judge of the same model
// family is warned about once on stderr and named per row in `m/self_judging`.

/** Vendor families by the words their model names use; the first match wins. */
const FAMILIES: [RegExp, string][] = [
  [/\b(gpt|chatgpt|davinci)\b/, 'openai'],
  [/\bclaude\b/, 'anthropic'],
  [/\b(gemini|gemma|palm|bison)\b/, 'google'],
  [/\b(llama|codellama)\b/, 'meta-llama'],
  [/\b(mistral|mixtral|codestral|ministral|pixtral)\b/, 'mistral'],
  [/\b(qwen|qwq)\b/, 'qwen'],
  [/\bdeepseek\b/, 'deepseek'],
  [/\bphi\b/, 'microsoft-phi'],
  [/\b(command|aya)\b/, 'cohere'],
  [/\bgrok\b/, 'xai'],
];

/**
 * The family of a model name: a known vendor family, else the name's first word (after any
 * `vendor/` prefix), lower case. `gpt-4o-mini`, `openai/gpt-4.1` → openai; `llama3.1:8b` → meta-llama.
 */
export function modelFamily(name: string): string {
  const last = name.toLowerCase().split('/').pop() ?? '';
  if (/^o[1-9](?:$|[-_:])/.test(last)) return 'openai'; // o1, o3-mini, o4-mini
  const n = name.toLowerCase().replace(/([a-z])(\d)/g, '$1 $2').replace(/[_:/.@-]+/g, ' ');
  for (const [re, family] of FAMILIES) if (re.test(n)) return family;
  return /^[a-z]+/.exec(last)?.[0] ?? last;
}

export interface GuardedJudge {
  /** As in `m/judges`. */
  label: string;
  model: string;
}

export class SelfJudgingGuard {
  private readonly warned = new Set<string>();
  private readonly families: { label: string; model: string; family: string }[];

  constructor(
    readonly field: string,
    judges: readonly GuardedJudge[],
    private readonly log: ((message: string) => void) | undefined,
  ) {
    this.families = judges.map((j) => ({ ...j, family: modelFamily(j.model) }));
  }

  /** The judges of the generator's family for this row (warned about on first sight). */
  check(record: Record<string, unknown>): string[] {
    const generator = record[this.field];
    if (typeof generator !== 'string' || generator.trim() === '') return [];
    const family = modelFamily(generator);
    const same = this.families.filter((j) => j.family === family);
    for (const j of same) {
      if (this.warned.has(j.label)) continue;
      this.warned.add(j.label);
      this.log?.(
        `judge ${j.label} is of the ${family} family, like the generator of some rows ("${this.field}"); a judge tends to favour its own family's answers (self-enhancement bias): those rows name it in self_judging`,
      );
    }
    return same.map((j) => j.label);
  }
}
