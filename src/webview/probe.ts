// Browser side of the probe view: one bar per probe (share of verdicts changed, against the
// threshold line; susceptible probes marked), the mean shift with its 95% interval, and per probe
// the rows that moved most, each opening the original and the perturbed copy side by side.
// Strings from the files reach the page through textContent only.
import { hostMessageSchema, initialDataSchema, type HostMessage, type JudgedCopy, type MovedRowView, type ProbeBar, type ProbeState, type ProbeView, type WebviewMessage } from '../protocol/probe';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, ProbeState>();
const notice = el('p', 'notice');

const num = (v: number | null, d = 3) => (v === null ? '—' : v.toFixed(d));
const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);
const pct = (v: number) => `${Math.max(0, Math.min(100, v * 100))}%`;

function section(cls: string, title: string, ...children: Node[]): HTMLElement {
  const s = el('section', cls);
  s.append(el('h2', undefined, title), ...children);
  return s;
}

/** The mean shift and its interval on an axis from −range to +range, zero in the middle. */
function shiftChart(p: ProbeBar, range: number): HTMLElement {
  // A margin on both ends keeps a shift at the edge of the range visible.
  const at = (x: number) => 0.04 + (0.92 * (x + range)) / (2 * range);
  const chart = el('div', 'shift');
  chart.title = `mean shift ${signed(p.meanShift)}, 95% interval ${p.ci ? `${signed(p.ci[0])} to ${signed(p.ci[1])}` : '—'}`;
  const axis = el('div', 'axis');
  axis.append(el('span', 'zero'));
  if (p.ci) {
    const band = el('span', 'ci');
    band.style.setProperty('--lo', pct(at(p.ci[0])));
    band.style.setProperty('--hi', pct(at(p.ci[1])));
    axis.append(band);
  }
  if (p.meanShift !== null) {
    const mean = el('span', 'mean');
    mean.style.setProperty('--at', pct(at(p.meanShift)));
    axis.append(mean);
  }
  const label = el('span', 'shift-text', `${signed(p.meanShift)} ${p.ci ? `[${signed(p.ci[0])}, ${signed(p.ci[1])}]` : ''}`.trim());
  chart.append(axis, label);
  return chart;
}

function bar(p: ProbeBar, threshold: number, range: number): HTMLElement {
  const row = el('div', `probe${p.susceptible ? ' susceptible' : ''}`);
  row.dataset.probe = p.probe;
  row.dataset.susceptible = String(p.susceptible);
  const name = el('div', 'name');
  name.append(el('span', 'id', p.probe));
  if (p.susceptible) name.append(el('span', 'badge', 'susceptible'));
  name.title = p.description;
  const track = el('div', 'track');
  track.setAttribute('role', 'img');
  track.setAttribute('aria-label', `${p.probe}: ${p.changed} of ${p.n} verdicts changed (${num(p.share)}); threshold ${threshold}`);
  const fill = el('span', 'fill');
  fill.style.setProperty('--share', pct(p.share ?? 0));
  const line = el('span', 'threshold');
  line.style.setProperty('--at', pct(threshold));
  line.title = `threshold ${threshold}`;
  track.append(fill, line);
  const share = el('div', 'share', `${p.changed}/${p.n} · ${num(p.share)}`);
  row.append(name, track, share, shiftChart(p, range));
  return row;
}

function copyBox(title: string, c: JudgedCopy, target: string): HTMLElement {
  const box = el('div', 'side');
  box.append(el('h3', undefined, `${title}: ${c.verdict}`), el('div', 'label', target), el('pre', 'text', c.text || '(empty)'));
  box.append(el('div', 'label', 'justification'), el('p', 'just', c.justification || '(no justification)'));
  if (c.truncated) box.append(el('p', 'muted', 'Cut short here; the run view shows the whole row.'));
  const row = c.resultRow;
  if (row !== null) box.append(button('Open in Run View', `Open row ${row} of probe-results.jsonl in the run view`, () => host.post({ type: 'openRow', row })));
  return box;
}

function movedList(v: ProbeView, p: ProbeBar, detail: HTMLElement): HTMLElement {
  const group = el('div', 'moved');
  group.dataset.probe = p.probe;
  group.append(el('h3', undefined, `${p.probe} (${p.changed} changed${p.changed > p.moved.length ? `, ${p.moved.length} largest shown` : ''})`));
  const list = el('ul', 'rows');
  const show = (m: MovedRowView) => {
    detail.dataset.probe = p.probe;
    detail.dataset.row = String(m.row);
    const head = el('p', 'detail-head', `Row ${m.row}, probe ${p.probe}: ${m.original.verdict} → ${m.perturbed.verdict} (shift ${signed(m.shift)})`);
    const sides = el('div', 'sides');
    sides.append(copyBox('Original', m.original, v.target), copyBox(`Perturbed (${p.probe})`, m.perturbed, v.target));
    detail.replaceChildren(head, sides);
  };
  for (const m of p.moved) {
    const li = el('li', 'moved-row');
    li.dataset.row = String(m.row);
    li.append(button(`Row ${m.row}: ${m.original.verdict} → ${m.perturbed.verdict} (${signed(m.shift)})`, 'Show the original and the perturbed copy side by side', () => show(m)));
    list.append(li);
  }
  group.append(list);
  return group;
}

function render(v: ProbeView): void {
  const head = el('header', 'head');
  head.append(
    el('div', undefined, `Bias probes of ${v.metric} (${v.kind}) on ${v.rows} row(s) of ${v.dataset}`),
    el('div', 'muted', `Perturbed field: ${v.target}. Output: ${v.dir}/`),
  );
  const verdict =
    v.susceptible.length === 0
      ? el('p', 'verdict fair', `Not susceptible to any probe: none changed more than ${v.threshold} of the verdicts.`)
      : el('p', 'verdict biased', `Susceptible to: ${v.susceptible.join(', ')} (changed more than ${v.threshold} of the verdicts).`);
  const actions = el('div', 'actions');
  actions.append(
    button('Open Report', 'Open probe-report.json', () => host.post({ type: 'openFile', file: 'report' })),
    button('Open Probe Dataset', 'Open probe-dataset.jsonl: each row followed by its perturbed copies', () => host.post({ type: 'openFile', file: 'dataset' })),
    button('Open Results', 'Open probe-results.jsonl', () => host.post({ type: 'openFile', file: 'results' })),
  );
  const range = Math.max(1, Math.ceil(Math.max(...v.probes.flatMap((p) => [p.meanShift ?? 0, ...(p.ci ?? [])].map(Math.abs)))));
  const bars = el('div', 'bars');
  const legend = el('div', 'legend muted');
  const towards = v.kind === 'pairwise' ? `towards response B: B = +1, TIE = 0, A = −1` : 'in score points';
  legend.append(el('span', undefined, `Share of verdicts changed; the line marks the threshold (${v.threshold}).`), el('span', undefined, `Mean shift ${towards}, with its 95% interval; axis ±${range}.`));
  bars.append(...v.probes.map((p) => bar(p, v.threshold, range)));
  const facts = el('div', 'muted');
  if (v.positionInconsistent !== null) facts.append(el('p', undefined, `Position swap: ${num(v.positionInconsistent)} of the original verdicts changed with the order of the responses.`));
  if (v.failed > 0) facts.append(el('p', undefined, `${v.failed} judged copies failed and are left out.`));
  facts.append(el('p', undefined, v.method));

  const parts: HTMLElement[] = [head, verdict, actions, notice, section('chart', 'Probes', legend, bars, facts)];
  const detail = el('div', 'detail');
  const moved = v.probes.filter((p) => p.moved.length > 0);
  if (moved.length > 0) parts.push(section('movers', 'Rows that moved most', ...moved.map((p) => movedList(v, p, detail)), detail));
  else parts.push(section('movers', 'Rows that moved most', el('p', 'muted', 'No verdict changed under any probe.')));
  root.replaceChildren(...parts);
}

function show(m: HostMessage): void {
  if (m.type === 'report') render(m.view);
  else if (m.type === 'error') root.replaceChildren(el('p', 'error', m.message));
  else notice.textContent = m.text;
}

start(host, { initial: initialDataSchema, messages: hostMessageSchema, show: (i) => i.message && show(i.message), receive: show, reject: showRejection('probe view', 'error') });
