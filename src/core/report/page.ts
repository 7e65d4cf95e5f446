// The report page's script. It runs in the browser with nothing but the DOM: this function's source
// is inlined into the page (html.ts), so it must not use anything from outside its body. Every
// string from the data reaches the page through textContent, never as HTML.
import type { ReportData, ReportRow } from './types';

export function reportPage(): void {
  const PAGE_SIZE = 100;
  const source = document.getElementById('report-data');
  const root = document.getElementById('report');
  if (!source || !root) return;
  const data = JSON.parse(source.textContent ?? '{}') as ReportData;

  function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  const fmt = (v: number | null | undefined, digits = 3): string => (v === null || v === undefined ? '—' : v.toFixed(digits));
  const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);
  const label = (v: ReportRow['j'] | undefined): string => (v === null || v === undefined ? '—' : String(v));
  const section = (title: string, id: string): HTMLElement => {
    const s = el('section');
    s.id = id;
    s.append(el('h2', undefined, title));
    root.append(s);
    return s;
  };
  const table = (head: string[], body: string[][], cls?: string): HTMLTableElement => {
    const t = el('table', cls);
    const tr = el('tr');
    for (const h of head) tr.append(el('th', undefined, h));
    t.append(tr);
    for (const row of body) {
      const r = el('tr');
      for (const c of row) r.append(el('td', undefined, c));
      t.append(r);
    }
    return t;
  };

  // Heading: what was judged and the figures with their intervals.
  root.append(el('h1', undefined, `${data.metric} — ${data.kind} judge`));
  const labelled = data.labelsFile ? `, human labels from ${data.labelsFile}` : '';
  root.append(el('p', 'muted', `${data.file}: ${data.total} rows${labelled}; ${data.n} with both a verdict and a human label; generated ${data.generated}`));
  const figures = section('Agreement with human labels', 'figures');
  if (data.noFigures) figures.append(el('p', 'muted', data.noFigures));
  const cards = el('div', 'cards');
  for (const f of data.figures) {
    const card = el('div', 'card');
    card.dataset.figure = f.key;
    card.append(el('div', 'name', f.name), el('div', 'value', fmt(f.value)), el('div', 'ci', f.low === null || f.high === null ? '95% CI —' : `95% CI ${fmt(f.low)} – ${fmt(f.high)}`));
    cards.append(card);
  }
  if (data.coverage !== null) {
    const card = el('div', 'card');
    card.dataset.figure = 'coverage';
    card.append(el('div', 'name', 'Coverage'), el('div', 'value', pct(data.coverage)), el('div', 'ci', `${data.n} of ${data.labelled} labelled rows judged`));
    cards.append(card);
  }
  figures.append(cards);
  if (data.figures.length) figures.append(el('p', 'muted', `Intervals: ${data.intervalMethod}.`));

  // The confusion matrix as a heat map: each cell shaded by its share of the human row.
  if (data.confusion) {
    const s = section('Confusion matrix (rows: human, columns: judge)', 'confusion');
    const t = el('table', 'heat');
    const head = el('tr');
    head.append(el('th', undefined, 'human \\ judge'));
    for (const l of data.confusion.labels) head.append(el('th', undefined, String(l)));
    t.append(head);
    data.confusion.labels.forEach((h, i) => {
      const tr = el('tr');
      tr.append(el('th', undefined, String(h)));
      const counts = data.confusion!.matrix[i] ?? [];
      const total = counts.reduce((a, b) => a + b, 0);
      counts.forEach((c, j) => {
        const share = total === 0 ? 0 : c / total;
        const td = el('td', i === j ? 'diag' : undefined, String(c));
        td.dataset.human = String(h);
        td.dataset.judge = String(data.confusion!.labels[j]);
        td.title = `human ${String(h)}, judge ${String(data.confusion!.labels[j])}: ${c} rows (${pct(share)} of the human row)`;
        td.style.background = `rgba(9, 105, 218, ${(0.08 + 0.8 * share).toFixed(3)})`;
        if (share > 0.5) td.style.color = '#fff';
        tr.append(td);
      });
      t.append(tr);
    });
    s.append(t);
  }
  if (data.verdicts.length) {
    const s = section('Verdicts given', 'verdicts');
    s.append(table(['verdict', 'rows'], data.verdicts.map((v) => [String(v.label), String(v.count)])));
  }

  const failures = section('Failures by kind', 'failures');
  if (data.failures.length === 0) failures.append(el('p', 'muted', 'No row failed.'));
  else {
    const max = Math.max(...data.failures.map((f) => f.count));
    const t = table(['error kind', 'rows'], []);
    for (const f of data.failures) {
      const tr = el('tr');
      const bar = el('span', 'bar');
      bar.style.width = `${Math.max(2, (160 * f.count) / max)}px`;
      const td = el('td');
      td.append(bar, document.createTextNode(String(f.count)));
      tr.append(el('td', undefined, f.kind), td);
      t.append(tr);
    }
    failures.append(t);
  }

  if (data.panel) {
    const p = data.panel;
    const s = section('Panel of judges', 'panel');
    s.append(el('p', 'muted', `${p.judges.length} judges; Fleiss' κ ${fmt(p.fleiss_kappa)} over ${p.fleiss_n} rows; effective judges ${fmt(p.effective_judges, 2)}`));
    s.append(table(['judge', 'n', 'accuracy', "Cohen's κ"], p.per_judge.map((j) => [j.judge, String(j.n), fmt(j.accuracy), fmt(j.cohen_kappa)])));
  }
  if (data.criteria) {
    const s = section('Criteria', 'criteria');
    s.append(table(['criterion', 'n', 'accuracy', "Cohen's κ", 'quadratic κ'], data.criteria.map((c) => [c.name, String(c.n), fmt(c.accuracy), fmt(c.cohenKappa), fmt(c.qwk)])));
  }
  if (data.sweep) drawSweep(section('Escalation threshold sweep', 'sweep'), data.sweep);
  if (data.compare) drawCompare(section('Compared with B', 'compare'), data.compare);
  drawRows(section('Rows', 'rows'));

  function drawSweep(s: HTMLElement, sweep: NonNullable<ReportData['sweep']>): void {
    s.append(el('p', 'muted', `${sweep.rows} screened rows, ${sweep.both} with the big judge's verdict (${sweep.audited} audited at ${sweep.audit_percent}%). x: share escalated (the big judge's cost grows with it); y: agreement.${sweep.chosen ? ` The run's rule (${sweep.chosen}) is marked.` : ''}`));
    // The plot on the left, the legend to its right, so no label covers a curve.
    const W = 760;
    const H = 300;
    const L = 48;
    const B = 36;
    const PLOT = 500;
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('width', String(W));
    svg.setAttribute('height', String(H));
    svg.setAttribute('role', 'img');
    const x = (v: number) => L + v * PLOT;
    const y = (v: number) => H - B - v * (H - B - 12);
    const add = (tag: string, attrs: Record<string, string>, text?: string) => {
      const e = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
      if (text !== undefined) e.textContent = text;
      svg.append(e);
      return e;
    };
    for (let t = 0; t <= 4; t++) {
      add('line', { class: 'grid', x1: String(x(0)), x2: String(x(1)), y1: String(y(t / 4)), y2: String(y(t / 4)) });
      add('text', { x: String(L - 6), y: String(y(t / 4) + 4), 'text-anchor': 'end' }, `${t * 25}%`);
      add('text', { x: String(x(t / 4)), y: String(H - B + 16), 'text-anchor': 'middle' }, `${t * 25}%`);
    }
    add('text', { x: String(x(0.5)), y: String(H - 4), 'text-anchor': 'middle' }, 'share escalated to the big judge');
    const series: [keyof (typeof sweep.points)[number], string, string][] = [
      ['agreement_human', '#cf222e', 'agreement with humans'],
      ['agreement_judge', '#0969da', 'agreement with the big judge'],
    ];
    series.forEach(([key, colour, name], i) => {
      const pts = sweep.points.filter((p) => typeof p[key] === 'number').sort((a, b) => a.escalation_rate - b.escalation_rate);
      if (pts.length === 0) return;
      add('polyline', { fill: 'none', stroke: colour, 'stroke-width': '2', points: pts.map((p) => `${x(p.escalation_rate)},${y(p[key] as number)}`).join(' ') });
      (add('text', { x: String(x(1) + 24), y: String(y(1) + 4 + 16 * i) }, name) as SVGElement).style.fill = colour;
      for (const p of pts) {
        const c = add('circle', { cx: String(x(p.escalation_rate)), cy: String(y(p[key] as number)), r: p.rule === sweep.chosen ? '6' : '2.5', fill: colour });
        const tip = document.createElementNS(ns, 'title');
        tip.textContent = `${p.rule}: ${pct(p.escalation_rate)} escalated, ${name} ${pct(p[key] as number)}`;
        c.append(tip);
      }
    });
    s.append(svg);
    s.append(table(['escalate when', 'escalated', 'agree (judge)', 'agree (humans)'], sweep.points.map((p) => [`${p.rule}${p.rule === sweep.chosen ? ' (chosen)' : ''}`, pct(p.escalation_rate), pct(p.agreement_judge), pct(p.agreement_human)])));
  }

  function drawCompare(s: HTMLElement, c: NonNullable<ReportData['compare']>): void {
    if ('error' in c) {
      s.append(el('p', 'bad', c.error));
      return;
    }
    s.append(el('p', undefined, `B: ${c.fileB}. ${c.n} paired rows; agreement ${pct(c.agreement)}, Cohen's κ ${fmt(c.cohenKappa)}; ${c.flipped} flipped; mean shift ${fmt(c.meanShift)}.`));
    s.append(el('p', 'verdict', c.verdict));
    if (c.figures.length) {
      s.append(table(['figure', 'A', 'B', 'B − A'], c.figures.map((f) => [f.name, fmt(f.a), fmt(f.b), fmt(f.delta)])));
      s.append(el('p', 'muted', `McNemar exact p = ${c.mcnemarP === null ? '—' : c.mcnemarP.toPrecision(3)}; balanced accuracy B−A 95% CI ${c.ci ? `${fmt(c.ci[0])} to ${fmt(c.ci[1])}` : '—'}. Flipped rows: choose "flipped" in the rows below.`));
    }
    s.append(el('h3', undefined, `Template diff (A ${c.hashes.a.join(', ') || '—'} → B ${c.hashes.b.join(', ') || '—'})`));
    if ('missing' in c.diff) s.append(el('p', 'muted', c.diff.missing));
    else {
      const pre = el('div', 'diff');
      for (const l of c.diff.lines) pre.append(el('div', l.op === '+' ? 'add' : l.op === '-' ? 'del' : undefined, `${l.op} ${l.text}`));
      s.append(pre);
    }
  }

  function drawRows(s: HTMLElement): void {
    const controls = el('div', 'controls');
    const search = el('input');
    search.type = 'search';
    search.placeholder = 'Search inputs, justifications, errors…';
    search.setAttribute('aria-label', 'Search rows');
    const filter = el('select');
    filter.setAttribute('aria-label', 'Which rows');
    const options: [string, string][] = [['all', 'all rows'], ['disagree', 'judge ≠ human'], ['failed', 'failed rows']];
    if (data.compare && !('error' in data.compare)) options.push(['flipped', 'flipped (A ≠ B)']);
    for (const [value, text] of options) {
      const o = el('option', undefined, text);
      o.value = value;
      filter.append(o);
    }
    const prev = el('button', undefined, '‹ Prev');
    const next = el('button', undefined, 'Next ›');
    const status = el('span', 'muted');
    status.id = 'page-status';
    controls.append(filter, search, prev, next, status);
    const t = el('table', 'rows');
    const colgroup = el('colgroup');
    for (const cls of ['num', 'v', 'v', '', '', '']) colgroup.append(el('col', cls || undefined));
    t.append(colgroup);
    const head = el('tr');
    for (const h of ['row', 'judge', 'human', 'judge justification', 'human comment', 'inputs']) head.append(el('th', undefined, h));
    const body = el('tbody');
    t.append(el('thead'), body);
    t.tHead!.append(head);
    s.append(controls, t);

    let view: ReportRow[] = data.rows;
    let page = 0;
    const haystack = (r: ReportRow) => `${r.r}\n${r.x}\n${r.c ?? ''}\n${r.e ?? ''}\n${r.t}`.toLowerCase();
    let texts: string[] | undefined;
    const apply = () => {
      const q = search.value.trim().toLowerCase();
      const f = filter.value;
      if (q && !texts) texts = data.rows.map(haystack);
      view = data.rows.filter((r, i) => {
        if (f === 'disagree' && !(r.j !== null && r.h !== null && r.j !== r.h)) return false;
        if (f === 'failed' && r.e === undefined) return false;
        if (f === 'flipped' && r.b === undefined) return false;
        return !q || texts![i]!.includes(q);
      });
      page = 0;
      draw();
    };
    const draw = () => {
      const pages = Math.max(1, Math.ceil(view.length / PAGE_SIZE));
      page = Math.min(page, pages - 1);
      const rows = view.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
      body.replaceChildren(
        ...rows.map((r) => {
          const tr = el('tr', r.e !== undefined ? 'failed' : r.j !== null && r.h !== null && r.j !== r.h ? 'disagree' : undefined);
          tr.dataset.row = String(r.r);
          const verdict = r.e !== undefined ? `failed (${r.k ?? 'unknown'})` : r.b !== undefined ? `${label(r.j)} → ${label(r.b)}` : label(r.j);
          tr.append(el('td', undefined, String(r.r)), el('td', 'v', verdict), el('td', undefined, label(r.h)), el('td', undefined, r.e ?? r.x), el('td', undefined, r.c ?? ''), el('td', undefined, r.t));
          return tr;
        }),
      );
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
      status.textContent = view.length === 0 ? 'no rows match' : `rows ${page * PAGE_SIZE + 1}–${page * PAGE_SIZE + rows.length} of ${view.length} · page ${page + 1} of ${pages}`;
    };
    let timer: number | undefined;
    search.addEventListener('input', () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(apply, 150);
    });
    filter.addEventListener('change', apply);
    prev.addEventListener('click', () => {
      page--;
      draw();
    });
    next.addEventListener('click', () => {
      page++;
      draw();
    });
    // A report about disagreements opens on them when there are any.
    if (data.rows.some((r) => r.j !== null && r.h !== null && r.j !== r.h)) filter.value = 'disagree';
    apply();
  }
}
