// Browser side of the calibration view. Every string from the file (labels, prompts,
// justifications, messages) reaches the page through textContent; messages from the host are
// zod-checked before use. Heat-map shades are set through the CSSOM, which the CSP allows.
import {
  hostMessageSchema,
  initialDataSchema,
  type BiasRow,
  type CalibrationState,
  type CalibrationView,
  type CellRow,
  type FailedRow,
  type GroupRow,
  type HeatRow,
  type Headline,
  type HostMessage,
  type SwapChoice,
  type SweepView,
  type ViewLabel,
  type ViewOptions,
  type WebviewMessage,
} from '../protocol/calibrate';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';
import { optionalSections } from './lib/calibrateLayout';

const host = connect<WebviewMessage, CalibrationState>();
const post = host.post;
const UNDEFINED_NOTE = 'undefined: all labels equal';

/** The cell whose rows are listed; kept across reloads so the list follows the file. */
let selected: { human: ViewLabel; judge: ViewLabel } | undefined;
let current: CalibrationView | undefined;

function section(className: string, title: string, ...children: Node[]): HTMLElement {
  const s = el('section', className);
  s.append(el('h2', undefined, title), ...children);
  return s;
}

/** Wide tables scroll sideways inside a narrow panel instead of being cut off. */
function scroller(table: HTMLTableElement): HTMLElement {
  const box = el('div', 'scroll');
  box.append(table);
  return box;
}

function fixed(value: number): string {
  return value.toFixed(3);
}

function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

/** A figure as text, "—" with an explanation when it is undefined. */
function figureNode(value: number | null, format: (v: number) => string, nullNote = UNDEFINED_NOTE): HTMLElement {
  const span = el('span', value === null ? 'figure undefined' : 'figure', value === null ? '—' : format(value));
  if (value === null) span.title = nullNote;
  return span;
}

function render(message: HostMessage): void {
  switch (message.type) {
    case 'report':
      current = message.view;
      renderReport(message.view);
      return;
    case 'error':
      current = undefined;
      renderError(message.file, message.metric, message.message);
      return;
    case 'cellRows':
      renderCellRows(message.human, message.judge, message.total, message.rows);
      return;
    case 'notice':
      showNotice(message.text);
      return;
  }
}

function renderReport(v: CalibrationView): void {
  const optional = optionalSections(v).map((id) => (id === 'pass-fail' ? passFail(v) : bias(v)));
  root.replaceChildren(header(v), ...criteriaBar(v), ...optionsBar(v), guidance(v), headline(v), ...groups(v), heatMap(v), el('div', 'cell-rows'), classes(v), ...sweep(v), ...optional, ...extras(v), ...panelFigures(v));
  root.dataset.state = 'report';
  const stillThere = selected && v.labels.includes(selected.human) && v.labels.includes(selected.judge);
  if (selected && stillThere) select(selected.human, selected.judge);
  else selected = undefined;
}

/** A multi-criterion judge: the overall and each criterion, with its mean gap to humans; one click switches. */
function criteriaBar(v: CalibrationView): HTMLElement[] {
  const c = v.criteria;
  if (!c) return [];
  const nav = el('nav', 'criteria-switch');
  nav.setAttribute('aria-label', 'Criterion');
  nav.append(el('span', 'label', 'Criterion: '));
  for (const o of c.options) {
    const gap = o.mean_abs_diff === null ? '' : ` (|j−h| ${fixed(o.mean_abs_diff)})`;
    const b = button(`${o.label}${gap}`, o.metric === c.current ? 'Shown now' : `Calibrate ${o.label}`, () => post({ type: 'switchMetric', metric: o.metric }), o.metric === c.current);
    b.dataset.metric = o.metric;
    if (o.metric === c.current) b.setAttribute('aria-current', 'true');
    if (o.label === c.most) b.classList.add('most');
    nav.append(b);
  }
  const most = c.options.find((o) => o.label === c.most);
  if (most && most.mean_diff !== null) {
    const dir = most.mean_diff > 0 ? 'higher' : most.mean_diff < 0 ? 'lower' : 'neither higher nor lower';
    nav.append(el('p', 'most-note', `Most disagreement: ${most.label} — the judge scores ${dir} than humans by ${fixed(Math.abs(most.mean_diff))} on average. A consistent gap on one criterion matters more than scattered noise.`));
  }
  return [nav];
}

const SWAP_CHOICES: readonly [SwapChoice, string][] = [
  ['recorded', 'as the run judged'],
  ['consistent', 'consistent: both orders must agree, else TIE'],
  ['votes', 'votes: each order is one vote'],
];

/** A labelled select whose change posts the view's options (calibrate's `--swap-rule` and `--by`). */
function choice(name: string, label: string, options: readonly [string, string][], value: string, onChange: (value: string) => void): HTMLElement {
  const box = el('label', `choice ${name}`);
  const select = el('select');
  select.name = name;
  for (const [v, text] of options) {
    const o = el('option', undefined, text);
    o.value = v;
    select.append(o);
  }
  select.value = value;
  select.addEventListener('change', () => onChange(select.value));
  box.append(el('span', 'label', label), select);
  return box;
}

/** Two orders (pairwise files with passes) and a column to split the figures by, when the file has either. */
function optionsBar(v: CalibrationView): HTMLElement[] {
  const o = v.options;
  if (!o || (o.swapRule === null && o.byColumns.length === 0)) return [];
  const nav = el('nav', 'view-options');
  nav.setAttribute('aria-label', 'Calibration options');
  const send = (next: Partial<ViewOptions>): void => post({ type: 'setOptions', swapRule: next.swapRule ?? o.swapRule ?? 'recorded', by: next.by === undefined ? o.by : next.by });
  if (o.swapRule !== null) {
    const swap = choice('swap-rule', 'Two orders: ', SWAP_CHOICES, o.swapRule, (value) => send({ swapRule: value as SwapChoice }));
    swap.title = "How each row's two passes (A/B and B/A) make its verdict, re-read from the stored passes with no new judge calls (calibrate --swap-rule).";
    nav.append(swap);
  }
  if (o.byColumns.length > 0) {
    const columns: [string, string][] = [['', 'no column'], ...o.byColumns.map((c): [string, string] => [c, c])];
    const by = choice('by', 'Figures by: ', columns, o.by ?? '', (value) => send({ by: value === '' ? null : value }));
    by.title = 'Every figure per value of a dataset column (calibrate --by).';
    nav.append(by);
  }
  return [nav];
}

/** calibrate --by: the figures per value of the chosen column, failed rows counted per value. */
function groups(v: CalibrationView): HTMLElement[] {
  const column = v.options?.by;
  if (!column || !v.groups) return [];
  const table = el('table', 'groups');
  const head = el('tr');
  head.append(...[column, 'rows', 'accuracy', 'balanced accuracy', "Cohen's κ", 'coverage', 'failed'].map((t) => headerCell(t, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const g of v.groups) body.append(groupRow(g));
  table.append(thead, body);
  return [section('groups', `Figures by ${column} (${v.groups.length} value${v.groups.length === 1 ? '' : 's'})`, scroller(table))];
}

function groupRow(g: GroupRow): HTMLTableRowElement {
  const tr = el('tr');
  tr.dataset.value = g.value;
  tr.append(headerCell(g.value, 'row'), el('td', 'num', String(g.n)));
  if (g.error !== null) {
    const why = el('td', 'error', g.error);
    why.colSpan = 5;
    tr.append(why);
    return tr;
  }
  for (const [value, format] of [[g.accuracy, fixed], [g.balanced_accuracy, fixed], [g.cohen_kappa, fixed], [g.coverage, percent]] as const) {
    const td = el('td', 'value');
    td.append(figureNode(value, format));
    tr.append(td);
  }
  tr.append(el('td', g.failed > 0 ? 'num failed' : 'num', String(g.failed)));
  return tr;
}

const SVG = 'http://www.w3.org/2000/svg';
/** The chart's size and margins, in the SVG's own units (it scales to the panel's width). */
const CHART = { width: 560, height: 260, left: 44, bottom: 34, top: 10, right: 16 };

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A tiered run: for each escalation threshold the screen could have used, the share of rows it
 * escalates (the big judge's cost) against the agreement with the big judge and with the humans.
 */
function sweep(v: CalibrationView): HTMLElement[] {
  const s = v.sweep;
  if (!s) return [];
  if ('error' in s) return [section('sweep', 'Escalation threshold sweep', el('p', 'empty', s.error))];
  const known = s.audited > 0 ? `${s.audited} kept rows audited at ${s.audit_percent}%` : 'no audit: only escalated rows have the big judge\'s verdict, so raising the threshold cannot be measured';
  const intro = el('p', 'legend', `${s.rows} screened rows, ${s.both} with the big judge's verdict (${known}). Across: share of rows escalated to the big judge; up: agreement. The same sweep as judge-studio thresholds --by ${s.by}.`);
  const rows = s.points.map((p) => [p.rule, percent(p.escalation_rate), p.agreement_judge === null ? '—' : percent(p.agreement_judge), p.agreement_human === null ? '—' : `${percent(p.agreement_human)} (${p.human_n})`]);
  const table = el('table', 'sweep-points');
  const head = el('tr');
  head.append(...['escalate when', 'escalated', 'agree with the big judge', 'agree with humans (rows)'].map((t) => headerCell(t, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  rows.forEach((cells, i) => {
    const tr = el('tr');
    tr.dataset.rule = s.points[i]!.rule;
    tr.append(headerCell(cells[0]!, 'row'), ...cells.slice(1).map((c) => el('td', 'num', c)));
    body.append(tr);
  });
  table.append(thead, body);
  const details = el('details', 'sweep-table');
  details.append(el('summary', undefined, `Each threshold (${s.points.length})`), scroller(table));
  return [section('sweep', 'Escalation threshold sweep', intro, sweepChart(s), details)];
}

function sweepChart(s: SweepView): SVGSVGElement {
  const { width, height, left, bottom, top, right } = CHART;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', class: 'sweep-chart' });
  chart.setAttribute('aria-label', 'Agreement against the share of rows escalated, one point per threshold');
  const x = (share: number) => left + share * (width - left - right);
  const y = (share: number) => height - bottom - share * (height - bottom - top);
  for (let t = 0; t <= 4; t++) {
    chart.append(
      svg('line', { class: 'grid', x1: x(0), x2: x(1), y1: y(t / 4), y2: y(t / 4) }),
      svg('text', { class: 'tick', x: left - 6, y: y(t / 4) + 4, 'text-anchor': 'end' }, `${t * 25}%`),
      svg('text', { class: 'tick', x: x(t / 4), y: height - bottom + 16, 'text-anchor': 'middle' }, `${t * 25}%`),
    );
  }
  chart.append(svg('text', { class: 'axis', x: x(0.5), y: height - 4, 'text-anchor': 'middle' }, 'share escalated to the big judge'));
  const series: ['agreement_judge' | 'agreement_human', string, string][] = [
    ['agreement_judge', 'judge', 'agreement with the big judge'],
    ['agreement_human', 'human', 'agreement with humans'],
  ];
  series.forEach(([key, cls, name], i) => {
    const points = s.points.filter((p) => p[key] !== null).sort((a, b) => a.escalation_rate - b.escalation_rate);
    if (points.length === 0) return;
    const line = svg('polyline', { class: `series ${cls}`, points: points.map((p) => `${x(p.escalation_rate)},${y(p[key]!)}`).join(' ') });
    line.dataset.series = cls;
    chart.append(line, svg('text', { class: `key ${cls}`, x: x(1) - 6, y: y(0) - 8 - 16 * i, 'text-anchor': 'end' }, name));
    for (const p of points) {
      const dot = svg('circle', { class: `dot ${cls}`, cx: x(p.escalation_rate), cy: y(p[key]!), r: 3 });
      dot.append(svg('title', {}, `${p.rule}: ${percent(p.escalation_rate)} escalated, ${name} ${percent(p[key]!)}`));
      chart.append(dot);
    }
  });
  return chart;
}

function header(v: CalibrationView): HTMLElement {
  const bar = el('header', 'toolbar');
  const title = el('div', 'title');
  title.append(el('span', 'metric', v.metric), el('span', 'meta', ` · ${v.kind} · ${v.display}`));
  const counts = el('div', 'counts', `${v.n} labelled row${v.n === 1 ? '' : 's'} · ${v.skippedText}`);
  const actions = el('div', 'actions');
  actions.append(
    button('Align Judge with Labels…', 'Draft template edits from the rows the judge gets wrong and test them on held-out rows', () => post({ type: 'align' })),
    button('Reload', 'Read the file again and recalculate', () => post({ type: 'reload' })),
  );
  bar.append(title, counts, actions);
  return bar;
}

function guidance(v: CalibrationView): HTMLElement {
  const box = section('guidance', 'Which figure to read', el('p', 'advice', v.guidance.advice));
  box.dataset.task = v.guidance.task;
  if (v.guidance.warnings.length > 0) {
    const list = el('ul', 'warnings');
    for (const w of v.guidance.warnings) list.append(el('li', 'warning', w));
    box.append(list);
  }
  return box;
}

function headline(v: CalibrationView): HTMLElement {
  return section('headline', 'Agreement with the human labels', figureGrid(v.headline));
}

function figureGrid(figures: readonly Headline[]): HTMLElement {
  const grid = el('div', 'figures');
  for (const h of figures) {
    const card = el('div', h.primary ? 'figure-card primary' : 'figure-card');
    card.dataset.key = h.key;
    card.title = h.help;
    const name = el('div', 'name', h.name);
    if (h.primary) name.append(el('span', 'badge', 'fits this task'));
    const format = h.key.startsWith('bias.') ? percent : fixed;
    card.append(name, figureNode(h.value, format, h.key.startsWith('bias.') ? 'undefined: no row was judged in both orders' : UNDEFINED_NOTE));
    grid.append(card);
  }
  return grid;
}

/** calibrate's "As pass/fail": the same rows through the template's passing labels (categorical only). */
function passFail(v: CalibrationView): HTMLElement {
  const p = v.passFail!;
  const table = el('table', 'classes pass-fail');
  const head = el('tr');
  const corner = el('th', 'corner', 'human ↓  judge →');
  corner.scope = 'col';
  head.append(corner, ...p.labels.map((l) => headerCell(String(l), 'col')), headerCell('human total', 'col', 'total'));
  const body = el('tbody');
  for (const row of p.rows) {
    const tr = el('tr');
    tr.append(headerCell(String(row.human), 'row'));
    for (const c of row.cells) tr.append(el('td', c.human === c.judge ? 'num agree' : 'num disagree', String(c.count)));
    tr.append(el('td', 'total', String(row.total)));
    body.append(tr);
  }
  const foot = el('tr', 'totals');
  foot.append(headerCell('judge total', 'row', 'total'), ...p.columnTotals.map((t) => el('td', 'total', String(t))), el('td', 'total', String(p.n)));
  body.append(foot);
  const thead = el('thead');
  thead.append(head);
  table.append(thead, body);
  const passing = p.passingLabels.map((l) => JSON.stringify(l)).join(', ');
  return section('pass-fail', `As pass/fail (passing labels: ${passing}; ${p.n} row${p.n === 1 ? '' : 's'})`, scroller(table), figureGrid(p.headline));
}

function heatMap(v: CalibrationView): HTMLElement {
  if (v.labels.length === 0) return section('matrix', 'Confusion matrix', el('p', 'empty', 'No row has both a human and a judge label.'));
  const table = el('table', 'heat');
  const head = el('tr');
  const corner = el('th', 'corner', 'human ↓  judge →');
  corner.scope = 'col';
  head.append(corner, ...v.labels.map((l) => headerCell(String(l), 'col')), headerCell('human total', 'col', 'total'));
  const body = el('tbody');
  for (const row of v.rows) body.append(heatRow(row));
  const foot = el('tr', 'totals');
  foot.append(headerCell('judge total', 'row', 'total'), ...v.columnTotals.map((t) => el('td', 'total', String(t))), el('td', 'total', String(v.n)));
  body.append(foot);
  const thead = el('thead');
  thead.append(head);
  table.append(thead, body);
  const legend = el('p', 'legend', 'Each cell: rows · share of the human row. Green cells agree, red ones disagree; the darker, the larger the share. Click a cell to list its rows.');
  return section('matrix', 'Confusion matrix', scroller(table), legend);
}

function headerCell(text: string, scope: 'col' | 'row', className?: string): HTMLTableCellElement {
  const th = el('th', className, text);
  th.scope = scope;
  return th;
}

function heatRow(row: HeatRow): HTMLTableRowElement {
  const tr = el('tr');
  tr.append(headerCell(String(row.human), 'row'));
  for (const c of row.cells) {
    const td = el('td', c.human === c.judge ? 'cell agree' : 'cell disagree');
    td.dataset.human = String(c.human);
    td.dataset.judge = String(c.judge);
    td.dataset.count = String(c.count);
    // The shade: a custom property set through the CSSOM (no inline style attribute, so the CSP holds).
    td.style.setProperty('--share', String(c.share ?? 0));
    const b = el('button', 'cell-button');
    b.type = 'button';
    b.append(el('span', 'count', String(c.count)), el('span', 'share', ` · ${c.share === null ? '—' : percent(c.share)}`));
    b.title = `Humans ${String(c.human)}, judge ${String(c.judge)}: ${c.count} of ${row.total} row${row.total === 1 ? '' : 's'}. Click to list them.`;
    b.addEventListener('click', () => select(c.human, c.judge));
    td.append(b);
    tr.append(td);
  }
  tr.append(el('td', 'total', String(row.total)));
  return tr;
}

function select(human: ViewLabel, judge: ViewLabel): void {
  selected = { human, judge };
  root.querySelectorAll<HTMLTableCellElement>('td.cell').forEach((td) => {
    td.classList.toggle('selected', td.dataset.human === String(human) && td.dataset.judge === String(judge));
  });
  post({ type: 'selectCell', human, judge });
}

function renderCellRows(human: ViewLabel, judge: ViewLabel, total: number, rows: CellRow[]): void {
  const box = root.querySelector<HTMLElement>('.cell-rows');
  if (!box || !selected || selected.human !== human || selected.judge !== judge) return; // a stale answer
  const verdict = human === judge ? 'agreement' : 'disagreement';
  const nodes: Node[] = [el('h2', undefined, `Humans said ${String(human)}, the judge ${String(judge)} (${verdict}): ${total} row${total === 1 ? '' : 's'}`)];
  if (rows.length === 0) nodes.push(el('p', 'empty', 'No rows in this cell.'));
  else {
    const hint = current?.runView ? 'Click a row to open it in the run view.' : 'Click a row to open it in the file (the run view is not available).';
    nodes.push(el('p', 'hint', hint), scroller(rowTable(rows)));
    if (total > rows.length) nodes.push(el('p', 'hint', `Showing the first ${rows.length} of ${total}.`));
  }
  nodes.push(el('p', 'notice'));
  box.replaceChildren(...nodes);
  box.dataset.human = String(human);
  box.dataset.judge = String(judge);
}

function rowTable(rows: CellRow[]): HTMLTableElement {
  const table = el('table', 'rows');
  const head = el('tr');
  head.append(...['row', 'prompt', 'human', 'judge', 'justification'].map((t) => headerCell(t, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const r of rows) {
    const tr = el('tr', 'row');
    // The number people know a row by is the dataset's (`_row`), not the line of this results file.
    tr.dataset.row = String(r.datasetRow);
    tr.dataset.fileRow = String(r.row);
    tr.tabIndex = 0;
    tr.title = `Dataset row ${r.datasetRow} (line ${r.line} of this file)`;
    tr.append(el('td', 'num', String(r.datasetRow)), el('td', 'prompt', r.prompt), el('td', 'label', String(r.human)), el('td', 'label', String(r.judge)), el('td', 'justification', r.justification));
    const open = (): void => post({ type: 'openRow', row: r.row });
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open();
      }
    });
    body.append(tr);
  }
  table.append(thead, body);
  return table;
}

function classes(v: CalibrationView): HTMLElement {
  const primary = v.guidance.primary.some((p) => p.startsWith('per_class.'));
  const table = el('table', primary ? 'classes primary' : 'classes');
  const head = el('tr');
  head.append(...['label', 'precision', 'recall', 'F1', 'support (human)', 'predicted (judge)'].map((t) => headerCell(t, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const c of v.classes) {
    const tr = el('tr');
    tr.dataset.label = String(c.label);
    const cell = (node: Node): HTMLTableCellElement => {
      const td = el('td');
      td.append(node);
      return td;
    };
    tr.append(
      headerCell(String(c.label), 'row'),
      cell(figureNode(c.precision, fixed, 'undefined: the judge never gave this label')),
      cell(figureNode(c.recall, fixed, 'undefined: humans never gave this label')),
      cell(figureNode(c.f1, fixed)),
      el('td', 'num', String(c.support)),
      el('td', 'num', String(c.predicted)),
    );
    body.append(tr);
  }
  table.append(thead, body);
  return section('per-class', primary ? 'Per label — precision, recall and F1 fit this task' : 'Per label', scroller(table));
}

function bias(v: CalibrationView): HTMLElement {
  const table = el('table', 'bias');
  const body = el('tbody');
  for (const b of v.bias) body.append(biasRow(b));
  table.append(body);
  return section('bias-diagnostics', 'Bias diagnostics', scroller(table));
}

function biasRow(b: BiasRow): HTMLTableRowElement {
  const tr = el('tr');
  tr.dataset.key = b.key;
  tr.title = b.help;
  const value = el('td', 'value');
  value.append(figureNode(b.value, b.format === 'rate' ? percent : fixed, b.n === 0 ? `no ${b.unit} with the needed data` : UNDEFINED_NOTE));
  tr.append(headerCell(b.name, 'row'), value, el('td', 'n', b.n === 0 ? `no ${b.unit} with the needed data` : `n = ${b.n} ${b.unit}`));
  return tr;
}

function extras(v: CalibrationView): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (v.rules.length > 0) {
    const table = el('table', 'rules');
    const body = el('tbody');
    for (const r of v.rules) {
      const tr = el('tr');
      const rate = el('td', 'value');
      rate.append(figureNode(r.rate, percent, 'no row was checked'));
      tr.append(headerCell(r.rule, 'row'), el('td', 'num', `${r.rows} row${r.rows === 1 ? '' : 's'}`), rate);
      body.append(tr);
    }
    table.append(body);
    out.push(section('rules', 'Rule violations', scroller(table)));
  }
  if (v.failed && v.failed.length > 0) out.push(failedRows(v.failed, v.failedTotal ?? v.failed.length));
  if (v.notes.length > 0) {
    const details = el('details', 'notes');
    details.append(el('summary', undefined, `Rows skipped with a reason (${v.notes.length + v.notesOmitted})`));
    const list = el('ul');
    for (const n of v.notes) list.append(el('li', undefined, `row ${n.row} (line ${n.line}): ${n.message}`));
    if (v.notesOmitted > 0) list.append(el('li', undefined, `and ${v.notesOmitted} more for the same kinds of reasons`));
    details.append(list);
    out.push(details);
  }
  return out;
}

/** Rows where the judge failed: left out of every figure above, listed so each can be opened. */
function failedRows(rows: FailedRow[], total: number): HTMLElement {
  const table = el('table', 'rows failed-rows');
  const head = el('tr');
  head.append(...['row', 'error kind', 'error'].map((t) => headerCell(t, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const r of rows) {
    const tr = el('tr', 'row');
    tr.dataset.row = String(r.datasetRow);
    tr.dataset.fileRow = String(r.row);
    tr.tabIndex = 0;
    tr.title = `Dataset row ${r.datasetRow} (line ${r.line} of this file)`;
    tr.append(el('td', 'num', String(r.datasetRow)), el('td', 'label', r.errorKind ?? '–'), el('td', 'justification', r.message));
    const open = (): void => post({ type: 'openRow', row: r.row });
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open();
      }
    });
    body.append(tr);
  }
  table.append(thead, body);
  const box = section('failed', `Rows the judge failed on (${total})`, scroller(table));
  if (total > rows.length) box.append(el('p', 'hint', `Showing the first ${rows.length} of ${total}.`));
  return box;
}

function showNotice(text: string): void {
  const target = root.querySelector<HTMLElement>('.cell-rows .notice');
  if (target) target.textContent = text;
  else root.append(el('p', 'notice', text));
}

function renderError(file: string, metric: string, message: string): void {
  const box = el('section', 'problems');
  const reload = el('button', 'action', 'Reload');
  reload.type = 'button';
  reload.addEventListener('click', () => post({ type: 'reload' }));
  box.append(el('h2', undefined, `${file} cannot be calibrated on "${metric}".`), el('p', 'message', message), reload);
  root.replaceChildren(box);
  root.dataset.state = 'error';
}

start(host, {
  initial: initialDataSchema,
  messages: hostMessageSchema,
  show: (initial) => {
    if (initial.message) render(initial.message);
  },
  receive: render,
  reject: showRejection('calibration view', 'problems'),
});

/** A panel's results: how far its judges agree, the judge × judge kappa heat map, each judge vs the humans. */
function panelFigures(v: CalibrationView): HTMLElement[] {
  const p = v.panel;
  if (!p) return [];
  const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  const facts = el('dl', 'panel-facts');
  const fact = (name: string, value: string) => facts.append(el('dt', undefined, name), el('dd', undefined, value));
  fact("Krippendorff's α", p.alpha.map((a) => `${a.level} ${f3(a.value)}`).join(' · ') + ` (${p.alphaUnits} rows)`);
  fact("Fleiss' κ", `${f3(p.fleiss)} (${p.fleissN} rows every judge answered)`);
  fact('Error correlation', f3(p.errorCorrelation));
  fact('Effective independent judges', `${f3(p.effectiveJudges)} of ${p.judges.length}`);
  const table = el('table', 'heat panel-kappa');
  const head = el('tr');
  head.append(headerCell('judge × judge κ', 'col'), ...p.judges.map((j) => headerCell(j, 'col')));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  p.judges.forEach((j, i) => {
    const tr = el('tr');
    tr.append(headerCell(j, 'row'));
    for (const k of p.kappa[i] ?? []) {
      const td = el('td', 'cell agree kappa', f3(k));
      td.style.setProperty('--share', String(Math.max(0, k ?? 0)));
      tr.append(td);
    }
    body.append(tr);
  });
  table.append(thead, body);
  const judges = el('table', 'per-judge');
  const jh = el('tr');
  jh.append(...['Judge', 'n', 'accuracy', "Cohen's κ"].map((h) => headerCell(h, 'col')));
  const jhead = el('thead');
  jhead.append(jh);
  const jbody = el('tbody');
  const panelRow = el('tr', 'panel-row');
  panelRow.append(headerCell('panel', 'row'), el('td', undefined, String(v.n)), el('td', undefined, f3(v.headline.find((h) => h.key === 'accuracy')?.value ?? null)), el('td', undefined, f3(v.headline.find((h) => h.key === 'cohen_kappa')?.value ?? null)));
  jbody.append(panelRow);
  for (const j of p.perJudge) {
    const tr = el('tr');
    tr.append(headerCell(j.judge, 'row'), el('td', undefined, String(j.n)), el('td', undefined, f3(j.accuracy)), el('td', undefined, f3(j.kappa)));
    jbody.append(tr);
  }
  judges.append(jhead, jbody);
  return [section('panel', `Panel of ${p.judges.length} judges`, facts, scroller(table), scroller(judges))];
}
