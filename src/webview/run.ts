// Browser side of the run view. It draws the view the host sends (zod-checked first) and posts
// back button presses. Every string from a model, a dataset or a template reaches the page
// through textContent: a justification holding <script> or <img onerror> stays text.
import {
  hostMessageSchema,
  initialDataSchema,
  type DimensionRow,
  type PairPass,
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
  if (view.result) nodes.push(verdict(view.result));
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
  title.append(el('span', 'file', view.template.file ?? view.template.metric));
  title.append(el('span', 'meta', view.template.kind ? `${view.template.metric} · ${view.template.kind}` : view.template.metric));
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
  const parts = [view.model ? `Model: ${view.model}` : 'Model: –', Number.isNaN(when.getTime()) ? view.time : when.toLocaleString()];
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

function verdict(result: ResultView): HTMLElement {
  const box = el('section', 'verdict');
  box.dataset.kind = result.kind;
  switch (result.kind) {
    case 'pointwise': {
      const score = el('div', 'score');
      score.append(el('span', 'value', String(result.score)));
      if (result.scale) score.append(el('span', 'of', ` / ${result.scale.max}`));
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
      if (result.confidence !== null) box.append(el('p', 'confidence', `Agreement across samples: ${fmt(result.confidence)}`));
      box.append(el('h3', undefined, 'Justification'), el('p', 'justification', result.justification));
      box.append(...extras(result.extras));
      return box;
    }
    case 'pairwise': {
      box.append(el('h2', undefined, 'Verdict'), finalLine(result.winner, null, result.confidence, result.consistent));
      box.append(el('p', 'justification', result.justification));
      if (result.passes.length) box.append(passColumns(result.passes));
      box.append(...extras(result.extras));
      return box;
    }
    case 'dimensional':
      return dimensional(box, result);
    case 'error': {
      box.setAttribute('role', 'alert');
      box.classList.add('error');
      box.append(el('h2', undefined, result.title), el('p', 'message', result.message));
      if (result.passes.length) {
        box.append(el('h3', undefined, 'Passes that finished before the failure'), passColumns(result.passes));
      }
      return box;
    }
  }
}

function finalLine(winner: 'A' | 'B' | 'TIE', degree: string | null, confidence: number | null, consistent: boolean | null): HTMLElement {
  const line = el('div', 'final');
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
  return line;
}

function passColumns(passes: PairPass[]): HTMLElement {
  const grid = el('div', 'pass-grid');
  for (const [i, p] of passes.entries()) {
    const col = el('section', 'pass');
    col.dataset.order = p.order;
    col.append(el('h3', undefined, `Pass ${i + 1} · order ${p.order}${p.order === 'BA' ? ' (mapped back)' : ''}`));
    const facts = el('dl');
    facts.append(el('dt', undefined, 'Winner'), el('dd', 'winner', p.winner), el('dt', undefined, 'Confidence'), el('dd', 'confidence', fmt(p.confidence)));
    col.append(facts, el('p', 'justification', p.justification));
    grid.append(col);
  }
  return grid;
}

function dimensional(box: HTMLElement, r: Extract<ResultView, { kind: 'dimensional' }>): HTMLElement {
  box.append(el('h2', undefined, 'Verdict'), finalLine(r.winner, r.degree, r.confidence, r.consistent));
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
    d.append(el('summary', undefined, `Pass ${i + 1} (${p.order}) justification`), el('p', 'justification', p.justification));
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
