// Browser side of the results viewer: a summary strip and a virtualised table. The host answers
// windowed queries, so only the rows on screen (plus a margin) are ever in the page. Every string
// from the file reaches the DOM through textContent.
import {
  hostMessageSchema,
  initialDataSchema,
  type FILTERS,
  type HostMessage,
  type ResultsQuery,
  type ResultsState,
  type ResultsSummary,
  type TableRow,
  type WebviewMessage,
  type SORTS,
} from '../protocol/results';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, ResultsState>();
const ROW_HEIGHT = 26;
const BLOCK = 200;

type Filter = (typeof FILTERS)[number];
type Sort = (typeof SORTS)[number];

const query: Omit<ResultsQuery, 'offset' | 'limit'> = { id: 0, filter: 'all', verdict: null, search: '', sort: 'row', descending: false };
let total = 0;
const cache = new Map<number, TableRow>();
const pending = new Set<number>();
let summary: ResultsSummary | undefined;

const COLUMNS: { key: Sort | null; title: string; cls: string }[] = [
  { key: 'row', title: 'Row', cls: 'c-row' },
  { key: 'verdict', title: 'Verdict', cls: 'c-verdict' },
  { key: 'confidence', title: 'Confidence', cls: 'c-conf' },
  { key: 'consistent', title: 'Consistent', cls: 'c-cons' },
  { key: 'violations', title: 'Violations', cls: 'c-viol' },
  { key: 'errorKind', title: 'Error', cls: 'c-err' },
  { key: 'human', title: 'Human', cls: 'c-human' },
  { key: null, title: 'Justification', cls: 'c-text' },
];

const strip = el('section', 'summary');
const toolbar = el('div', 'toolbar');
const countText = el('span', 'count');
const notice = el('p', 'notice');
const head = el('div', 'thead');
const viewport = el('div', 'viewport');
const spacer = el('div', 'spacer');
viewport.append(spacer);
viewport.tabIndex = 0;

function requery(): void {
  query.id++;
  cache.clear();
  pending.clear();
  viewport.scrollTop = 0;
  fetchBlock(0);
}

function fetchBlock(block: number): void {
  if (pending.has(block)) return;
  pending.add(block);
  host.post({ type: 'query', query: { ...query, offset: block * BLOCK, limit: BLOCK } });
}

/** Draws the rows in view; asks for blocks that are not here yet. */
function draw(): void {
  spacer.style.setProperty('--rows', String(total));
  const first = Math.max(0, Math.floor(viewport.scrollTop / ROW_HEIGHT) - 10);
  const last = Math.min(total, first + Math.ceil(viewport.clientHeight / ROW_HEIGHT) + 20);
  const nodes: HTMLElement[] = [];
  for (let i = first; i < last; i++) {
    const row = cache.get(i);
    if (!row) {
      fetchBlock(Math.floor(i / BLOCK));
      continue;
    }
    nodes.push(rowNode(row, i));
  }
  spacer.replaceChildren(...nodes);
  countText.textContent = summary ? `${total} of ${summary.rows} rows` : `${total} rows`;
}

function cell(cls: string, text: string, title?: string): HTMLElement {
  const c = el('span', `cell ${cls}`, text);
  if (title) c.title = title;
  return c;
}

function rowNode(r: TableRow, index: number): HTMLElement {
  const node = el('div', `tr${r.failed ? ' failed' : ''}${r.agrees === false ? ' disagree' : ''}`);
  node.dataset.row = String(r.row);
  node.style.setProperty('--y', `${index * ROW_HEIGHT}px`);
  node.append(
    cell('c-row', String(r.row)),
    cell('c-verdict', r.verdict ?? '—'),
    cell('c-conf', r.confidence === null ? '' : r.confidence.toFixed(2)),
    cell('c-cons', r.consistent === null ? '' : r.consistent ? 'yes' : 'NO'),
    cell('c-viol', r.violations > 0 ? String(r.violations) : ''),
    cell('c-err', r.errorKind ?? ''),
    cell('c-human', r.human ?? '', r.agrees === false ? 'disagrees with the verdict' : undefined),
    cell('c-text', r.snippet, r.snippet),
  );
  node.title = `Row ${r.row}: open in the run view`;
  node.addEventListener('click', () => host.post({ type: 'openRow', row: r.row }));
  return node;
}

function renderHead(): void {
  head.replaceChildren(
    ...COLUMNS.map((c) => {
      const h = el('span', `cell ${c.cls}${c.key ? ' sortable' : ''}`, c.title);
      if (c.key !== null) {
        const key = c.key;
        if (query.sort === key) h.textContent = `${c.title} ${query.descending ? '▼' : '▲'}`;
        h.setAttribute('role', 'button');
        h.dataset.sort = key;
        h.addEventListener('click', () => {
          query.descending = query.sort === key ? !query.descending : false;
          query.sort = key;
          renderHead();
          requery();
        });
      }
      return h;
    }),
  );
}

function renderToolbar(s: ResultsSummary): void {
  const filters: [Filter, string][] = [
    ['all', 'All'],
    ['failed', `Failed (${s.failed})`],
    ['inconsistent', `Inconsistent (${s.inconsistent})`],
    ['disagree', `Disagree with human (${s.disagreeing})`],
  ];
  const group = el('div', 'filters');
  for (const [f, label] of filters) {
    const b = button(label, `Show ${f === 'all' ? 'every row' : `${f} rows`}`, () => {
      query.filter = f;
      renderToolbar(s);
      requery();
    });
    b.dataset.filter = f;
    b.setAttribute('aria-pressed', String(query.filter === f));
    group.append(b);
  }
  const verdict = el('select', 'verdict-filter');
  verdict.title = 'Only rows with this verdict';
  verdict.append(new Option('Any verdict', ''), ...s.verdicts.map((v) => new Option(`Verdict ${v.label} (${v.count})`, v.label)));
  verdict.value = query.verdict ?? '';
  verdict.addEventListener('change', () => {
    query.verdict = verdict.value === '' ? null : verdict.value;
    requery();
  });
  const search = el('input', 'search');
  search.type = 'search';
  search.placeholder = 'Search inputs and justifications';
  search.value = query.search;
  let timer: number | undefined;
  search.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      query.search = search.value;
      requery();
    }, 150);
  });
  const text = button('Open as Text', 'Open this file in the text editor', () => host.post({ type: 'openAsText' }));
  toolbar.replaceChildren(group, verdict, search, countText, text);
}

function renderSummary(s: ResultsSummary): void {
  const title = el('div', 'title');
  title.append(el('strong', undefined, s.display), el('span', 'muted', ` · ${s.kind} · ${s.rows} rows`));
  if (s.metrics.length > 1) {
    const pick = el('select', 'metric');
    pick.append(...s.metrics.map((m) => new Option(m, m)));
    pick.value = s.metric;
    pick.addEventListener('change', () => host.post({ type: 'metric', metric: pick.value }));
    title.append(pick);
  } else title.append(el('span', 'muted', ` · metric ${s.metric}`));
  const max = Math.max(1, ...s.verdicts.map((v) => v.count));
  const bars = el('div', 'bars');
  bars.setAttribute('aria-label', 'Verdicts');
  for (const v of s.verdicts) {
    const bar = el('div', 'bar');
    bar.dataset.label = v.label;
    const fill = el('div', 'fill');
    fill.style.setProperty('--h', String(v.count / max));
    bar.append(el('span', 'n', String(v.count)), fill, el('span', 'label', v.label));
    bar.title = `${v.count} row(s) with verdict ${v.label}`;
    bars.append(bar);
  }
  const failures = el('div', 'failures');
  failures.append(el('div', 'muted', s.failed === 0 ? 'No failed rows' : `Failed rows: ${s.failed}`));
  for (const f of s.failures) failures.append(el('div', 'failure', `${f.kind}: ${f.count}`));
  const facts = el('div', 'facts');
  facts.append(
    el('div', undefined, `Position-inconsistent: ${s.inconsistent}`),
    el('div', undefined, `Human labels: ${s.labelled}, disagreeing: ${s.disagreeing}`),
  );
  if (s.templateHashes.length > 0) facts.append(el('div', 'muted', `Template ${s.templateHashes.join(', ')}`));
  if (s.replaced > 0) facts.append(el('div', 'muted', `${s.replaced} earlier line(s) replaced by a later line of the same row`));
  if (s.unreadable > 0) facts.append(el('div', 'muted', `${s.unreadable} unreadable line(s) left out`));
  strip.replaceChildren(title, bars, failures, facts);
}

function show(message: HostMessage): void {
  switch (message.type) {
    case 'summary':
      summary = message.summary;
      renderSummary(message.summary);
      renderToolbar(message.summary);
      renderHead();
      if (!root.contains(viewport)) root.replaceChildren(strip, toolbar, notice, head, viewport);
      requery();
      return;
    case 'rows':
      if (message.id !== query.id) return;
      pending.delete(Math.floor(message.offset / BLOCK));
      total = message.total;
      message.rows.forEach((r, i) => cache.set(message.offset + i, r));
      draw();
      return;
    case 'error': {
      const box = el('section', 'error');
      box.append(el('p', undefined, message.message), button('Open as Text', 'Open this file in the text editor', () => host.post({ type: 'openAsText' })));
      root.replaceChildren(box);
      return;
    }
    case 'notice':
      notice.textContent = message.text;
      return;
  }
}

viewport.addEventListener('scroll', () => window.requestAnimationFrame(draw));
window.addEventListener('resize', () => draw());

start(host, { initial: initialDataSchema, messages: hostMessageSchema, show: (i) => i.message && show(i.message), receive: show, reject: showRejection('results viewer', 'error') });
