// Checks for verdict formats and free-form templates: a free-form prompt must declare how its
// verdict is read, a custom pattern must compile for the linear-time engine (within its size caps), and the
// prompt should tell the judge the format it will be read in.
import { isScalar, parseDocument, type Node } from 'yaml';
import type { Diagnostic, Span } from '../diagnostics';
import { verdictTexts } from '../verdict/read';
import { compileVerdictPattern } from '../verdict/regex';
import type { ParsedTemplate, TemplateConfig } from './types';

export function checkVerdict(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[], anchor: Span): void {
  const spec = config.verdict;
  if (config.freeform && !spec) {
    out.push({ ...frontMatterSpan(t, ['freeform']), severity: 'error', code: 'verdict-missing', message: 'A free-form template must declare how its verdict is read: add `verdict: tagged` (FastChat\'s [[N]] / [[A]]), `verdict: json`, or `verdict: {format: regex, pattern: "…"}`.' });
    return;
  }
  if (spec?.format === 'regex' && spec.pattern) {
    const checked = compileVerdictPattern(spec.pattern, spec.flags, config.kind);
    if (!checked.ok) out.push({ ...frontMatterSpan(t, ['verdict', 'pattern']), severity: 'error', code: checked.code, message: checked.message });
  }
  checkQuotedLabels(t, config, out);
  // Only free-form prompts (and templates with their own Output format) state the format themselves;
  // a `json` verdict with `structured: true` is asked for by the JSON schema sent with the prompt.
  const writesOwn = config.freeform === true || t.sections.some((s) => s.key === 'output_format');
  if (!spec || !writesOwn || (spec.format === 'json' && spec.structured === true)) return;
  const prompt = `${config.system ?? ''}\n${t.text.slice(t.bodyStart)}`;
  const told =
    spec.format === 'json'
      ? /json/i.test(prompt)
      : spec.format === 'tagged'
        ? config.kind === 'pointwise'
          ? prompt.includes('[[')
          : prompt.includes('[[A]]') && prompt.includes('[[B]]')
        : spec.format === 'prometheus'
          ? prompt.includes('[RESULT]')
          : true; // a custom pattern cannot be checked against prose
  if (!told) {
    const shape =
      spec.format === 'json' ? 'a JSON object'
      : spec.format === 'prometheus' ? (config.kind === 'pointwise' ? '"[RESULT] N" after its feedback' : '"[RESULT] A" or "[RESULT] B" after its feedback')
      : config.kind === 'pointwise' ? 'a rating in double brackets, e.g. "Rating: [[5]]"' : '"[[A]]", "[[B]]" or "[[C]]" (a tie)';
    out.push({ ...anchor, severity: 'warning', code: 'verdict-not-asked', message: `The verdict is read as ${spec.format}, but the prompt never asks for it; tell the judge to end with ${shape}, or replies will need a repair request.` });
  }
}

/**
 * A prompt that lists the verdicts itself ("[[A>>B]]: A is much better…") gets them quoted back,
 * and under the default `first` the quote is read as the verdict. Imported templates keep their
 * tool's rule, and an explicit `match` is the author's choice: neither is warned about.
 */
function checkQuotedLabels(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[]): void {
  const spec = config.verdict;
  if (!spec || spec.format === 'json' || spec.match !== undefined || config.source) return;
  const found = [...new Set(verdictTexts(spec, config.kind, `${config.system ?? ''}\n${t.text.slice(t.bodyStart)}`))];
  // One example verdict ("Rating: [[5]]") shows the format; two or more are a list of labels to quote.
  if (found.length < 2) return;
  const shown = found.slice(0, 4).map((f) => JSON.stringify(f)).join(', ') + (found.length > 4 ? ', …' : '');
  out.push({
    ...frontMatterSpan(t, ['verdict']),
    severity: 'warning',
    code: 'verdict-labels-in-prompt',
    message: `The prompt itself contains verdicts the reader would take (${shown}); judges quote such lists back before their own verdict, and by default the first one counts${spec.format === 'tagged' && config.kind === 'pairwise' ? ' ([[A]] anywhere, FastChat\'s rule)' : ''}. Set \`verdict.match: unique\` (a reply with different verdicts is refused) or \`match: last\` (the final one counts).`,
  });
}

/** The YAML span of a front-matter key path, else the `---` line. */
export function frontMatterSpan(t: ParsedTemplate, path: (string | number)[]) {
  const fm = t.frontMatter;
  if (fm) {
    const doc = parseDocument(t.text.slice(fm.start, fm.end));
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
      if (node && (isScalar(node) || 'items' in node) && node.range) return t.index.span(fm.start + node.range[0], fm.start + node.range[1]);
    }
  }
  return t.index.span(0, 3);
}
