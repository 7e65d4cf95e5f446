// Browser side of the align view: the current template's figures, then one card per candidate with
// its held-out accuracy, the change against the current template with its 95 % interval (drawn
// on an axis through 0), McNemar's p and the overfit flag; Show Diff, Accept and Review
// Disagreements per candidate. Cards, not a table: the view often sits in a narrow column. Strings from the report reach the page through textContent only.
import { hostMessageSchema, initialDataSchema, type AlignState, type AlignView, type CandidateView, type HostMessage, type PartView, type WebviewMessage } from '../protocol/align';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, AlignState>();
const notice = el('p', 'notice');

const num = (v: number | null | undefined, d = 3) => (v === null || v === undefined ? '—' : v.toFixed(d));
const signed = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);
const pct = (v: number) => `${Math.max(0, Math.min(100, v * 100))}%`;
const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));

/** One figure: a small label above its value. */
function fig(label: string, value: string, cls: string, title?: string): HTMLElement {
  const box = el('div', `fig ${cls}`);
  if (title) box.title = title;
  box.append(el('div', 'label', label), el('div', 'value', value));
  return box;
}

/** The held-out change and its interval on an axis from −range to +range, 0 in the middle. */
function deltaChart(c: CandidateView, range: number): HTMLElement {
  const at = (x: number) => 0.04 + (0.92 * (x + range)) / (2 * range);
  const box = el('div', 'delta');
  const axis = el('div', 'axis');
  axis.append(el('span', 'zero'));
  if (c.ci) {
    const band = el('span', `ci${c.ci[0] > 0 ? ' above' : ''}`);
    band.style.setProperty('--lo', pct(at(c.ci[0])));
    band.style.setProperty('--hi', pct(at(c.ci[1])));
    axis.append(band);
  }
  if (c.delta !== null) {
    const mark = el('span', 'mean');
    mark.style.setProperty('--at', pct(at(c.delta)));
    axis.append(mark);
  }
  const text = el('span', 'delta-text', `${signed(c.delta)} ${c.ci ? `[${signed(c.ci[0])}, ${signed(c.ci[1])}]` : ''}`.trim());
  box.title = `held-out accuracy change ${signed(c.delta)}, 95% interval ${c.ci ? `${signed(c.ci[0])} to ${signed(c.ci[1])}` : 'not known'}`;
  box.append(el('span', 'label', 'Δ held-out accuracy, 95% CI'), axis, text);
  return box;
}

function kindLabel(c: CandidateView): string {
  if (c.kind === 'rubric') return 'rubric clarification';
  const ex = `${c.examples} example${c.examples === 1 ? '' : 's'}`;
  return c.kind === 'combined' ? `${ex} + rubric clarification` : ex;
}

function figures(v: AlignView, train: PartView | null, heldout: PartView | null): HTMLElement[] {
  return [fig('train acc', num(train?.accuracy), 'train'), fig('held-out acc', num(heldout?.accuracy), 'heldout'), fig('held-out bal. acc', num(heldout?.balancedAccuracy), 'balanced'), fig(`held-out ${v.kappaName}`, num(heldout?.kappa, 2), 'kappa')];
}

function candidateCard(v: AlignView, c: CandidateView, range: number): HTMLElement {
  const card = el('section', `candidate${c.best ? ' best' : ''}${v.accepted === c.id ? ' accepted' : ''}`);
  card.dataset.id = c.id;
  card.dataset.best = String(c.best);
  card.dataset.overfit = String(c.overfit);
  const title = el('div', 'title');
  title.append(el('span', 'id', c.id));
  if (c.best) title.append(el('span', 'badge best', 'best'));
  if (v.accepted === c.id) title.append(el('span', 'badge accepted', 'accepted'));
  if (c.overfit) title.append(el('span', 'badge overfit', 'fits train only'));
  if (c.status !== 'done') title.append(el('span', 'badge status', c.status === 'budget' ? 'budget spent' : 'stopped'));
  title.append(el('span', 'muted', `${kindLabel(c)}${c.drafted ? ` · ${c.drafted} justification${c.drafted === 1 ? '' : 's'} drafted by the author model` : ''}`));
  const overfitText = c.overfit === null ? '—' : c.overfit ? 'yes' : 'no';
  const overfitTitle = c.overfit ? `train gain ${signed(c.trainGain)} exceeds the held-out gain ${signed(c.delta)} by more than the interval's half-width` : `train gain ${signed(c.trainGain)}`;
  const grid = el('div', 'figures');
  grid.append(...figures(v, c.train, c.heldout), fig('McNemar p', pValue(c.mcnemarP), 'p'), fig('overfit', overfitText, `overfit ${c.overfit ? 'yes' : 'no'}`, overfitTitle), fig('calls', String(c.calls), 'calls'));
  const actions = el('div', 'actions');
  actions.append(
    button('Show Diff', `Show ${c.id} against the current template`, () => host.post({ type: 'showDiff', id: c.id })),
    button('Accept', `Write ${c.id} as the next version of ${v.template}`, () => host.post({ type: 'accept', id: c.id }), v.accepted !== null || c.status !== 'done'),
    button(`Review Disagreements (${c.wrong})`, `Review the ${c.wrong} held-out row(s) ${c.id} still gets wrong`, () => host.post({ type: 'review', id: c.id }), c.wrong === 0 || c.status !== 'done'),
  );
  card.append(title, deltaChart(c, range), grid, actions);
  return card;
}

function baselineCard(v: AlignView): HTMLElement {
  const card = el('section', 'candidate baseline');
  const title = el('div', 'title');
  title.append(el('span', 'id', 'current template'), el('span', 'muted', v.template));
  const grid = el('div', 'figures');
  grid.append(...figures(v, v.baseline.train, v.baseline.heldout));
  card.append(title, grid);
  return card;
}

function cards(v: AlignView): HTMLElement {
  const list = el('div', 'candidates');
  const range = Math.max(0.1, ...v.candidates.flatMap((c) => [c.delta ?? 0, ...(c.ci ?? [])].map(Math.abs)));
  list.append(baselineCard(v), ...v.candidates.map((c) => candidateCard(v, c, Math.min(1, range * 1.1))));
  return list;
}

function part(p: PartView | null): string {
  return p ? `${num(p.accuracy)} accuracy, ${num(p.balancedAccuracy)} balanced` : 'not judged';
}

function render(v: AlignView): void {
  const head = el('header', 'head');
  head.append(
    el('h1', undefined, `Align ${v.metric} with its labels`),
    el('div', 'muted', `${v.template} · ${v.train + v.heldout} labelled rows: ${v.train} train, ${v.heldout} held out (seed ${v.seed}, stratified by the human label) · output in ${v.dir}/`),
  );
  const best = v.candidates.find((c) => c.id === v.best);
  const verdict = best
    ? el('p', 'verdict good', `Best: ${best.id} raises held-out accuracy from ${num(v.baseline.heldout?.accuracy)} to ${num(best.heldout?.accuracy)} (${signed(best.delta)}, 95% interval above 0).`)
    : el('p', 'verdict none', 'No candidate beats the current template on the held-out rows: no interval lies above 0.');
  const facts = el('div', 'facts');
  facts.append(
    el('p', undefined, `Current template: train ${part(v.baseline.train)}; held-out ${part(v.baseline.heldout)}. It disagrees with ${v.trainDisagreements} train label(s); the candidates are drawn from those rows only.`),
  );
  const overfit = v.candidates.filter((c) => c.overfit).map((c) => c.id);
  if (overfit.length > 0) facts.append(el('p', 'warn', `Overfit: ${overfit.join(', ')} gained more on the train rows they were made from than on held-out rows.`));
  if (v.interrupted) facts.append(el('p', 'warn', 'The run was stopped: some figures are missing.'));
  const parts: HTMLElement[] = [head, verdict, facts, notice, cards(v)];
  const notes = v.candidates.flatMap((c) => c.notes.map((n) => `${c.id}: ${n}`));
  if (notes.length > 0) parts.push(list('notes', 'Notes', notes));
  if (v.refused.length > 0) parts.push(list('refused', 'Not built', v.refused.map((r) => `${r.id}: ${r.reason}`)));
  if (v.notRun.length > 0) parts.push(list('not-run', 'Not judged', v.notRun.map((r) => `${r.id} on ${r.part === 'heldout' ? 'held-out' : 'train'} rows: ${r.reason}`)));
  const foot = el('footer', 'muted');
  foot.append(
    el('p', undefined, `${v.calls} call(s), ${v.tokens} token(s) in all; the author model ${v.authorModel} made ${v.authorCalls}${v.budget ? `; budget ${v.budget.used} of ${v.budget.limit}` : ''}.`),
    el('p', undefined, v.method),
    button('Open Report', 'Open align-report.json', () => host.post({ type: 'openReport' })),
  );
  parts.push(foot);
  root.replaceChildren(...parts);
}

function list(cls: string, title: string, items: string[]): HTMLElement {
  const s = el('section', cls);
  const ul = el('ul');
  ul.append(...items.map((t) => el('li', undefined, t)));
  s.append(el('h2', undefined, title), ul);
  return s;
}

function show(m: HostMessage): void {
  if (m.type === 'report') render(m.view);
  else if (m.type === 'error') root.replaceChildren(el('p', 'error', m.message));
  else notice.textContent = m.text;
}

start(host, { initial: initialDataSchema, messages: hostMessageSchema, show: (i) => i.message && show(i.message), receive: show, reject: showRejection('align view', 'error') });
