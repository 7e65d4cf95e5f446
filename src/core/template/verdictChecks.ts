// Checks for verdict formats and free-form templates: a free-form prompt must declare how its
// verdict is read, a custom pattern must compile for the linear-time engine (within its size caps), and the
// prompt should tell the judge the format it will be read in.
import { isScalar, parseDocument, type Node } from 'yaml';
import type { Diagnostic, Span } from '../diagnostics';
import { VERDICT_FORMATS } from '../verdict/formats/registry';
import { verdictTexts } from '../verdict/dispatch';
import type { ParsedTemplate, TemplateConfig } from './types';

export function checkVerdict(t: ParsedTemplate, config: TemplateConfig, out: Diagnostic[], anchor: Span): void {
  const spec = config.verdict;
  if (config.freeform && !spec) {
    out.push({ ...frontMatterSpan(t, ['freeform']), severity: 'error', code: 'verdict-missing', message: 'A free-form template must declare how its verdict is read: add `verdict: tagged` (FastChat\'s [[N]] / [[A]]), `verdict: json`, or `verdict: {format: regex, pattern: "…"}`.' });
    return;
  }
  const finding = spec && VERDICT_FORMATS[spec.format].check(spec, config.kind);
  if (finding) out.push({ ...frontMatterSpan(t, finding.path), severity: 'error', code: finding.code, message: finding.message });
  checkQuotedLabels(t, config, out);
  // Only free-form prompts (and templates with their own Output format) state the format themselves;
  // a `json` verdict with `structured: true` is asked for by the JSON schema sent with the prompt.
  const writesOwn = config.freeform === true || t.sections.some((s) => s.key === 'output_format');
  if (!spec || !writesOwn || (VERDICT_FORMATS[spec.format].takes.structured && spec.structured === true)) return;
  const asked = VERDICT_FORMATS[spec.format].prompt;
  if (!asked) return;
  const prompt = `${config.system ?? ''}\n${t.text.slice(t.bodyStart)}`;
  if (!asked.asks(prompt, config.kind)) {
    const shape = asked.shape(config.kind);
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
  if (!spec || !VERDICT_FORMATS[spec.format].takes.match || spec.match !== undefined || config.source) return;
  const found = [...new Set(verdictTexts(spec, config.kind, `${config.system ?? ''}\n${t.text.slice(t.bodyStart)}`))];
  // One example verdict ("Rating: [[5]]") shows the format; two or more are a list of labels to quote.
  if (found.length < 2) return;
  const shown = found.slice(0, 4).map((f) => JSON.stringify(f)).join(', ') + (found.length > 4 ? ', …' : '');
  out.push({
    ...frontMatterSpan(t, ['verdict']),
    severity: 'warning',
    code: 'verdict-labels-in-prompt',
    message: `The prompt itself contains verdicts the reader would take (${shown}); judges quote such lists back before their own verdict, and by default the first one counts${VERDICT_FORMATS[spec.format].firstRuleNote(config.kind)}. Set \`verdict.match: unique\` (a reply with different verdicts is refused) or \`match: last\` (the final one counts).`,
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
