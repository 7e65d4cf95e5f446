// Browser side of the run view. It draws the view the host sends (zod-checked first) and posts
// back button presses. Every string from a model, a dataset or a template reaches the page
// through textContent: a justification holding <script> or <img onerror> stays text.
import {
  hostMessageSchema,
  initialDataSchema,
  type DimensionRow,
  type PairPass,
  type PanelView,
  type PassStatus,
  type RenderedOrder,
  type ResultView,
  type RunState,
  type RunView,
  type WebviewMessage,
} from '../protocol/run';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';
import { criteriaTable, tiersBox } from './runCriteria';

const host = connect<WebviewMessage, RunState>();
const post = host.post;

const STATE_TEXT: Record<PassStatus['state'], string> = {
  waiting: 'waiting',
  sent: 'sent, waiting for the reply',
  retrying: 'retrying after an error',
  repairing: 'invalid reply, repair requested',
  'following-up': 'rule broken, follow-up sent',
  answered: 'answered',
  unusable: 'answered, but the reply could not be used',
  failed: 'failed',
};
const PHASE_TEXT: Record<RunView['phase'], string> = {
  running: 'Judging…',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
  recorded: 'Recorded result',
};
const fmt = (n: number | null, digits = 2) => (n === null ? '–' : String(Math.round(n * 10 ** digits) / 10 ** digits));

function render(view: RunView): void {
  host.setState({ id: view.id });
  const nodes: Node[] = [toolbar(view), about(view), status(view)];
  if (view.result) nodes.push(verdict(view.result, view.template.pair ?? null));
  if (view.panel) nodes.push(panelSection(view.panel));
  if (view.criteria) nodes.push(criteriaTable(view.criteria));
  if (view.tiers) nodes.push(tiersBox(view.tiers));
  if (view.messages.length) nodes.push(messages(view.messages));
  if (view.raw.length) nodes.push(rawReplies(view));
  // Every update redraws the page: keep open whatever the reader opened.
  const opened = new Set(Array.from(root.querySelectorAll<HTMLDetailsElement>('details[open]')).map((d) => d.dataset.key));
  root.replaceChildren(...nodes);
  for (const d of Array.from(root.querySelectorAll<HTMLDetailsElement>('details'))) if (opened.has(d.dataset.key)) d.open = true;
  root.dataset.phase = view.phase;
}

function toolbar(view: RunView): HTMLElement {
  const bar = el('header', 'toolbar');
  const title = el('div', 'title');
  title.dataset.template = view.template.file ?? '';
  title.append(el('span', 'label', 'Template: '), el('span', 'file', view.template.file ?? view.template.metric));
  title.append(el('span', 'meta', view.template.kind ? `${view.template.metric} · ${view.template.kind}` : view.template.metric));
  if (view.template.how) title.append(el('span', 'how', `(${view.template.how})`));
  const actions = el('div', 'actions');
  const running = view.phase === 'running';
  actions.append(
    button('Re-run', 'Judge the same sample again', () => post({ type: 'rerun' }), running || !view.canRerun),
    button('Cancel', 'Stop this run', () => post({ type: 'cancel' }), !running),
    button('Copy result as JSON', 'Copy the results line to the clipboard', () => post({ type: 'copy' }), running || !view.result),
    el('span', 'copied'),
  );
  bar.append(title, actions);
  return bar;
}

function about(view: RunView): HTMLElement {
  const box = el('section', 'about');
  const sample = el('p', 'sample');
  sample.append(el('span', 'label', 'Sample: '), el('span', 'source', view.source));
  if (view.note) sample.append(el('span', 'note', ` — ${view.note}`));
  const when = new Date(view.time);
  const time = Number.isNaN(when.getTime()) ? view.time : when.toLocaleString();
  const parts = [view.model ? `Model: ${view.model}` : 'Model: –', view.timeLabel ? `${view.timeLabel} ${time}` : time];
  if (view.elapsedMs !== null) parts.push(`${(view.elapsedMs / 1000).toFixed(1)} s`);
  box.append(sample, el('p', 'model', parts.join(' · ')));
  return box;
}

function status(view: RunView): HTMLElement {
  const box = el('section', 'status');
  box.dataset.phase = view.phase;
  box.append(el('h2', 'phase', PHASE_TEXT[view.phase]));
  const list = el('ul', 'passes');
  for (const p of view.passes) {
    const li = el('li', `pass-state ${p.state}`);
    li.dataset.order = p.order;
    li.dataset.state = p.state;
    li.append(el('span', 'label', `${p.label}: `), el('span', 'state', STATE_TEXT[p.state]));
    list.append(li);
  }
  box.append(list);
  return box;
}

function verdict(result: ResultView, pair: string[] | null): HTMLElement {
  const box = el('section', 'verdict');
  box.dataset.kind = result.kind;
  switch (result.kind) {
    case 'pointwise': {
      const score = el('div', 'score');
      score.append(el('span', 'value', String(result.score)));
      if (result.scale) score.append(el('span', 'of', ` / ${result.scale.max}`));
      if (result.repaired) score.append(repairedBadge());
      box.append(el('h2', undefined, 'Score'), score);
      if (result.scale && result.scale.max - result.scale.min <= 20) {
        const strip = el('ol', 'scale');
        strip.setAttribute('aria-label', `scale ${result.scale.min} to ${result.scale.max}`);
        for (let s = result.scale.min; s <= result.scale.max; s++) {
          const li = el('li', s === result.score ? 'current' : undefined, String(s));
          if (s === result.score) li.setAttribute('aria-current', 'true');
          strip.append(li);
        }
        box.append(strip);
      }
      if (result.confidence !== null) box.append(el('p', 'confidence', `${result.confidenceLabel ?? 'Confidence'}: ${fmt(result.confidence)}`));
      box.append(el('h3', undefined, 'Justification'), el('p', 'justification', result.justification));
      box.append(...extras(result.extras));
      return box;
    }
    case 'categorical': {
      const label = el('div', 'score label');
      label.append(el('span', 'value', result.label));
      if (result.passed !== null) label.append(el('span', `badge ${result.passed ? 'verdict-pass' : 'verdict-fail'}`, result.passed ? 'pass' : 'fail'));
      if (result.repaired) label.append(repairedBadge());
      box.append(el('h2', undefined, 'Label'), label);
      if (result.labels && result.labels.length <= 20) {
        const strip = el('ol', 'scale labels');
        strip.setAttribute('aria-label', 'the template\'s labels');
        for (const l of result.labels) {
          const li = el('li', l === result.label ? 'current' : undefined, l);
          if (l === result.label) li.setAttribute('aria-current', 'true');
          strip.append(li);
        }
        box.append(strip);
      }
      if (result.confidence !== null) box.append(el('p', 'confidence', `${result.confidenceLabel ?? 'Confidence'}: ${fmt(result.confidence)}`));
      box.append(el('h3', undefined, 'Justification'), el('p', 'justification', result.justification));
      box.append(...extras(result.extras));
      return box;
    }
    case 'pairwise': {
      box.append(el('h2', undefined, 'Verdict'), finalLine(result.winner, null, result.confidence, result.consistent, 0, result.repaired === true));
      box.append(el('p', 'justification', result.justification));
      if (result.passes.length) box.append(passColumns(result.passes, pair));
      box.append(...extras(result.extras));
      return box;
    }
    case 'dimensional':
      return dimensional(box, result, pair);
    case 'error': {
      box.setAttribute('role', 'alert');
      box.classList.add('error');
      if (result.errorKind) box.dataset.errorKind = result.errorKind;
      const head = el('h2', undefined, result.title);
      if (result.errorKind) head.append(el('span', 'badge error-kind', result.errorKind));
      box.append(head, el('p', 'message', result.message));
      if (result.passes.length) {
        box.append(el('h3', undefined, 'Passes that finished before the failure'), passColumns(result.passes, pair));
      }
      return box;
    }
  }
}

function repairedBadge(): HTMLElement {
  const b = el('span', 'badge repaired', '⚠ repaired');
  b.title = "The judge's first reply was invalid; this verdict comes from its answer to one repair request.";
  return b;
}

function finalLine(winner: 'A' | 'B' | 'TIE', degree: string | null, confidence: number | null, consistent: boolean | null, violations = 0, repaired = false): HTMLElement {
  const line = el('div', 'final');
  line.dataset.violations = String(violations);
  const w = el('span', 'winner', winner === 'TIE' ? 'TIE' : `Winner: ${winner}`);
  w.dataset.winner = winner;
  line.append(w);
  if (degree) line.append(el('span', 'degree', degree));
  if (confidence !== null) line.append(el('span', 'confidence', `confidence ${fmt(confidence)}`));
  if (consistent === true) line.append(el('span', 'marker consistent', 'position-consistent'));
  if (consistent === false) {
    const m = el('span', 'marker inconsistent', '⚠ position-inconsistent');
    m.title = 'The two orders disagreed after mapping back, so the verdict is a TIE.';
    line.append(m);
  }
  // Consistent across orders is no clean bill of health when the replies broke the template's rules.
  if (violations > 0) {
    const v = el('span', 'badge violations', `⚠ ${violations} rule violation${violations === 1 ? '' : 's'}`);
    v.title = "The judge's replies broke the template's consistency rules; see Rule violations below.";
    line.append(v);
  }
  if (repaired) line.append(repairedBadge());
  return line;
}

const flip = (w: 'A' | 'B' | 'TIE') => (w === 'A' ? 'B' : w === 'B' ? 'A' : 'TIE');

/** For the swapped pass: which response the judge saw under each label. */
function sawLine(pair: string[] | null): HTMLElement {
  const [a, b] = pair && pair.length === 2 ? pair : ['response A', 'response B'];
  const p = el('p', 'saw', `Judge saw: A = ${b}, B = ${a}. Its justification uses those labels; the winner is mapped back.`);
  return p;
}

function passColumns(passes: PairPass[], pair: string[] | null): HTMLElement {
  const grid = el('div', 'pass-grid');
  for (const [i, p] of passes.entries()) {
    const col = el('section', 'pass');
    col.dataset.order = p.order;
    const swapped = p.order === 'BA';
    col.append(el('h3', undefined, `Pass ${i + 1} · order ${p.order}${swapped ? ' (swapped)' : ''}`));
    if (swapped) col.append(sawLine(pair));
    const facts = el('dl');
    const winner = swapped && p.winner !== 'TIE' ? `${p.winner} (the judge said ${flip(p.winner)})` : p.winner;
    facts.append(el('dt', undefined, swapped ? 'Winner, mapped back' : 'Winner'), el('dd', 'winner', winner), el('dt', undefined, 'Confidence'), el('dd', 'confidence', fmt(p.confidence)));
    col.append(facts, el('p', 'justification', p.justification));
    grid.append(col);
  }
  return grid;
}

function dimensional(box: HTMLElement, r: Extract<ResultView, { kind: 'dimensional' }>, pair: string[] | null): HTMLElement {
  box.append(el('h2', undefined, 'Verdict'), finalLine(r.winner, r.degree, r.confidence, r.consistent, r.violations.length, r.repaired === true));
  if (r.rankingA !== null && r.rankingB !== null) box.append(el('p', 'rankings', `Ranking (mean of the passes): A ${fmt(r.rankingA)} · B ${fmt(r.rankingB)}`));
  const table = el('table', 'dimensions');
  const head = el('tr');
  head.append(el('th', undefined, 'Dimension'), ...r.passes.map((p, i) => el('th', undefined, `Pass ${i + 1} (${p.order})`)), el('th', undefined, 'Final'));
  const thead = el('thead');
  thead.append(head);
  table.append(thead);
  const body = el('tbody');
  const cell = (c: DimensionRow['final'] | null) => el('td', c ? `cell w-${c.winner}` : 'cell', c ? `${c.winner} · ${c.degree}` : '–');
  for (const d of r.dimensions) {
    const tr = el('tr');
    tr.dataset.dimension = d.name;
    tr.append(el('th', undefined, d.name), ...d.passes.map(cell), cell(d.final));
    body.append(tr);
  }
  const overall = el('tr', 'overall');
  overall.append(el('th', undefined, 'overall'), ...r.passes.map((p) => cell({ winner: p.winner, degree: p.degree })), cell({ winner: r.winner, degree: r.degree }));
  const rankings = el('tr', 'ranking');
  rankings.append(el('th', undefined, 'ranking A / B'), ...r.passes.map((p) => el('td', undefined, `${p.rankingA} / ${p.rankingB}`)), el('td', undefined, r.rankingA === null || r.rankingB === null ? '–' : `${fmt(r.rankingA)} / ${fmt(r.rankingB)}`));
  const deflects = el('tr', 'deflection');
  const who = (a: boolean, b: boolean) => [a ? 'A' : '', b ? 'B' : ''].filter(Boolean).join(', ') || 'neither';
  deflects.append(el('th', undefined, 'deflects'), ...r.passes.map((p) => el('td', undefined, who(p.deflectionA, p.deflectionB))), el('td', undefined, '–'));
  body.append(overall, rankings, deflects);
  table.append(body);
  box.append(table);

  const v = el('section', 'violations');
  v.append(el('h3', undefined, r.violations.length ? `Rule violations (${r.violations.length})` : 'Rule violations: none'));
  if (r.violations.length) {
    const list = el('ul');
    for (const x of r.violations) {
      const li = el('li');
      li.dataset.rule = x.rule;
      li.append(el('span', 'where', `${x.pass !== null ? `Pass ${x.pass}` : 'Reply'} · ${x.rule}: `), el('span', 'text', x.message));
      list.append(li);
    }
    v.append(list);
  }
  box.append(v, el('h3', undefined, 'Justification'), el('p', 'justification', r.justification));
  for (const [i, p] of r.passes.entries()) {
    const d = el('details', 'pass-justification');
    d.dataset.key = `pass-${i}`;
    d.append(el('summary', undefined, `Pass ${i + 1} (${p.order}) justification${p.order === 'BA' ? ' — in the swapped labels' : ''}`));
    if (p.order === 'BA') d.append(sawLine(pair));
    d.append(el('p', 'justification', p.justification));
    box.append(d);
  }
  return box;
}

function extras(items: { name: string; value: string }[]): HTMLElement[] {
  if (!items.length) return [];
  const dl = el('dl', 'extras');
  for (const x of items) dl.append(el('dt', undefined, x.name), el('dd', undefined, x.value));
  return [el('h3', undefined, 'Other reply fields'), dl];
}

function messages(orders: RenderedOrder[]): HTMLElement {
  const count = orders.reduce((n, o) => n + o.messages.length, 0);
  const box = el('details', 'messages');
  box.dataset.key = 'messages';
  box.append(el('summary', undefined, `Rendered messages (${count})`));
  for (const o of orders) {
    const section = el('section', 'order');
    section.dataset.order = o.label;
    if (o.label !== 'single') section.append(el('h3', undefined, o.label === 'AB' ? 'Order AB — as in the sample' : 'Order BA — responses exchanged'));
    for (const m of o.messages) {
      const article = el('article', `message role-${m.role}`);
      article.dataset.role = m.role;
      article.append(el('header', 'role', m.role), el('pre', 'content', m.content));
      section.append(article);
    }
    box.append(section);
  }
  return box;
}

function rawReplies(view: RunView): HTMLElement {
  const box = el('details', 'raw');
  box.dataset.key = 'raw';
  // An error is explained by the reply that caused it: show it without a click.
  box.open = view.result?.kind === 'error';
  box.append(el('summary', undefined, `Raw replies (${view.raw.length})`));
  for (const r of view.raw) {
    const item = el('section', 'raw-reply');
    item.append(el('h3', undefined, r.label), el('pre', 'content', r.text));
    box.append(item);
  }
  return box;
}

function flashCopied(): void {
  const note = root.querySelector('.copied');
  if (note) note.textContent = 'Copied';
}

start(host, {
  initial: initialDataSchema,
  messages: hostMessageSchema,
  show: (initial) => {
    if (initial.view) render(initial.view);
  },
  receive: (message) => (message.type === 'show' ? render(message.view) : flashCopied()),
  reject: showRejection('run view', 'verdict error', 'message'),
});

/** A panel's row: the verdict with how many judges gave it, and a judge × pass table. */
function panelSection(panel: PanelView): HTMLElement {
  const box = el('section', 'panel');
  box.dataset.agreement = panel.agreement === null ? '' : String(panel.agreement);
  const agreeing = panel.judges.filter((j) => j.agrees).length;
  box.append(el('h2', undefined, `Panel of ${panel.judges.length} judges`));
  const headline =
    panel.verdict === null
      ? 'No panel verdict (see the error above)'
      : panel.majority === false
        ? `No strict majority of the panel, so the verdict is ${panel.verdict}`
        : `Panel verdict: ${panel.verdict} · ${agreeing} of ${panel.judges.length} judges agree`;
  box.append(el('p', 'panel-verdict', headline));
  const pairwise = panel.judges.some((j) => j.passes.length > 0);
  const orders = pairwise ? (['AB', 'BA'] as const) : [];
  const table = el('table', 'panel-table');
  const head = el('tr');
  for (const h of ['Judge', ...orders.map((o) => `Pass ${o}`), 'Verdict', 'Confidence', 'Status']) head.append(el('th', undefined, h));
  table.append(el('thead'));
  table.tHead!.append(head);
  const body = el('tbody');
  for (const j of panel.judges) {
    const tr = el('tr');
    tr.dataset.agrees = String(j.agrees);
    tr.append(el('td', 'judge', j.judge));
    for (const o of orders) tr.append(el('td', 'pass', j.passes.find((p) => p.order === o)?.winner ?? '–'));
    tr.append(el('td', 'verdict', j.verdict ?? '–'), el('td', 'confidence', fmt(j.confidence)));
    const state = j.errorKind ? `failed: ${j.errorKind}` : j.consistent === false ? 'position-inconsistent' : j.agrees ? 'agrees' : 'dissents';
    const cell = el('td', 'status', state);
    if (j.error) cell.title = j.error;
    tr.append(cell);
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  const why = el('details', 'panel-justifications');
  why.dataset.key = 'panel-justifications';
  why.append(el('summary', undefined, "Each judge's justification"));
  for (const j of panel.judges) why.append(el('h3', undefined, j.judge), el('p', 'justification', j.justification || j.error || '–'));
  box.append(why);
  return box;
}
