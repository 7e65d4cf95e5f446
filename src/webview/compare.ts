// Browser side of the compare view: the verdict line, the figures of A and B with their
// differences, the transition matrix as a heat map and the flipped rows with both justifications.
// Strings from the files reach the page through textContent only.
import { hostMessageSchema, initialDataSchema, type CompareState, type CompareView, type HostMessage, type WebviewMessage } from '../protocol/compare';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, CompareState>();
const notice = el('p', 'notice');

const num = (v: number | null, d = 3) => (v === null ? '—' : v.toFixed(d));
const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

function section(cls: string, title: string, ...children: Node[]): HTMLElement {
  const s = el('section', cls);
  s.append(el('h2', undefined, title), ...children);
  return s;
}

function render(v: CompareView): void {
  const head = el('header', 'head');
  head.append(el('div', undefined, `A: ${v.a}${v.hashes.a.length ? ` (template ${v.hashes.a.join(', ')})` : ''}`), el('div', undefined, `B: ${v.b}${v.hashes.b.length ? ` (template ${v.hashes.b.join(', ')})` : ''}`));
  const verdict = el('p', `verdict ${v.direction}`, v.verdict);
  const actions = el('div', 'actions');
  actions.append(button('Show Template Diff', 'Open the two template versions in the diff editor', () => host.post({ type: 'showDiff' })));

  const cards = el('div', 'cards');
  const card = (key: string, name: string, value: string) => {
    const c = el('div', 'card');
    c.dataset.key = key;
    c.append(el('div', 'value', value), el('div', 'name', name));
    return c;
  };
  cards.append(card('n', 'rows with a verdict in both', String(v.n)));
  // Failed rows are left out of every figure: say how many, so a better-looking B that failed more is seen.
  const failedCard = card('failed', 'failed rows (A / B), left out', `${v.failed.a} / ${v.failed.b}`);
  if (v.failed.a !== v.failed.b) failedCard.classList.add(v.failed.b > v.failed.a ? 'worse' : 'better');
  cards.append(failedCard, card('agreement', 'agreement', num(v.agreement)), card('cohen_kappa', "Cohen's kappa (A vs B)", num(v.cohenKappa)), card('flipped', 'flipped', String(v.flipped)));
  if (v.kind === 'pointwise') cards.append(card('mean_shift', 'mean score shift (B−A)', signed(v.meanShift)));
  const missing = [
    v.noVerdict.a || v.noVerdict.b ? `${v.noVerdict.a} row(s) of A and ${v.noVerdict.b} of B have no verdict for this metric` : '',
    v.only.a || v.only.b ? `${v.only.a} row(s) only in A and ${v.only.b} only in B are not compared` : '',
  ].filter(Boolean);

  const parts: HTMLElement[] = [head, verdict, actions, notice, cards];
  if (missing.length) parts.push(el('p', 'muted coverage', `${missing.join('; ')}.`));
  if (v.figures.length > 0) {
    const table = el('table', 'figures');
    const tr = el('tr');
    tr.append(el('th', undefined, `vs ${v.labelled} human labels`), el('th', undefined, 'A'), el('th', undefined, 'B'), el('th', undefined, 'B − A'));
    table.append(tr);
    for (const f of v.figures) {
      const row = el('tr');
      row.dataset.key = f.key;
      const d = el('td', `delta ${f.delta === null ? '' : f.delta > 0 ? 'up' : f.delta < 0 ? 'down' : ''}`, signed(f.delta));
      row.append(el('td', undefined, f.name), el('td', 'num', num(f.a)), el('td', 'num', num(f.b)), d);
      table.append(row);
    }
    const sig = el('p', 'muted', `McNemar exact p = ${v.mcnemarP === null ? '—' : v.mcnemarP.toPrecision(3)}; balanced accuracy B−A 95% CI ${v.ci ? `${signed(v.ci[0])} to ${signed(v.ci[1])}` : '—'} (paired bootstrap, seed 20240229, 2000 resamples)`);
    parts.push(section('human', 'Agreement with human labels', table, sig));
  }
  const max = Math.max(1, ...v.matrix.flat());
  const heat = el('table', 'heat');
  const top = el('tr');
  top.append(el('th', undefined, 'A ↓ / B →'), ...v.labels.map((l) => el('th', undefined, l)));
  heat.append(top);
  v.matrix.forEach((cells, i) => {
    const tr = el('tr');
    tr.append(el('th', undefined, v.labels[i] ?? ''));
    cells.forEach((c, j) => {
      const td = el('td', `cell${i === j ? ' same' : ''}`, String(c));
      td.dataset.a = v.labels[i] ?? '';
      td.dataset.b = v.labels[j] ?? '';
      td.style.setProperty('--share', String(c / max));
      tr.append(td);
    });
    heat.append(tr);
  });
  parts.push(section('transitions', 'Verdict transitions (A × B)', heat));

  const detail = el('div', 'detail');
  const list = el('ul', 'flips');
  for (const f of v.flips) {
    const li = el('li', 'flip');
    li.dataset.row = String(f.row);
    const b = button(`Row ${f.row}: ${f.a} → ${f.b}`, 'Show both justifications', () => {
      const sideA = el('div', 'side');
      sideA.append(el('h3', undefined, `A: ${f.a}`), el('p', 'just', f.justA || '(no justification)'), button('Open in Run View', 'Open this row of A', () => host.post({ type: 'openRow', row: f.row, side: 'a' })));
      const sideB = el('div', 'side');
      sideB.append(el('h3', undefined, `B: ${f.b}`), el('p', 'just', f.justB || '(no justification)'), button('Open in Run View', 'Open this row of B', () => host.post({ type: 'openRow', row: f.row, side: 'b' })));
      detail.dataset.row = String(f.row);
      detail.replaceChildren(sideA, sideB);
    });
    li.append(b);
    list.append(li);
  }
  if (v.flipsOmitted > 0) list.append(el('li', 'muted', `… ${v.flipsOmitted} more (judge-studio compare --json lists them all)`));
  parts.push(section('flipped', `Flipped rows (${v.flipped})`, list, detail));
  root.replaceChildren(...parts);
}

function show(m: HostMessage): void {
  if (m.type === 'report') render(m.view);
  else if (m.type === 'error') root.replaceChildren(el('p', 'error', m.message));
  else notice.textContent = m.text;
}

start(host, { initial: initialDataSchema, messages: hostMessageSchema, show: (i) => i.message && show(i.message), receive: show, reject: showRejection('compare view', 'error') });
