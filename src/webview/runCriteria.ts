// The run view's criteria table (multi-criterion templates) and tier box (tiered runs). Every
// string from the judge reaches the page through textContent (see ./lib/dom.ts).
import type { CriteriaView, TiersView } from '../protocol/criteria';
import { el } from './lib/dom';

const fmt = (n: number | null, digits = 2) => (n === null ? '–' : String(Math.round(n * 10 ** digits) / 10 ** digits));
const pct = (w: number | null) => (w === null ? '–' : `${Math.round(w * 1000) / 10}%`);

export function criteriaTable(c: CriteriaView): HTMLElement {
  const box = el('section', 'criteria');
  box.append(el('h2', undefined, 'Criteria'));
  const table = el('table', 'criteria');
  const head = el('tr');
  for (const h of ['Criterion', 'Weight', 'Score', 'Evidence', 'Justification', 'Improvement']) head.append(el('th', undefined, h));
  const thead = el('thead');
  thead.append(head);
  const body = el('tbody');
  for (const r of c.rows) {
    const tr = el('tr');
    tr.dataset.criterion = r.name;
    const evidence = el('td', 'evidence');
    const list = el('ul');
    for (const e of r.evidence) list.append(el('li', undefined, e));
    if (r.evidence.length) evidence.append(list);
    else evidence.textContent = '–';
    tr.append(el('th', 'name', r.name), el('td', 'weight', pct(r.weight)), el('td', 'crit-score', fmt(r.score)), evidence, el('td', 'justification', r.justification), el('td', 'improvement', r.improvement));
    body.append(tr);
  }
  const overall = el('tr', 'overall');
  overall.append(el('th', undefined, 'overall (weighted)'), el('td', 'weight', '100%'), el('td', 'crit-score', fmt(c.overall, 6)), el('td', undefined, c.rounded === null ? '' : `rounded: ${c.rounded}`), el('td'), el('td'));
  body.append(overall);
  table.append(thead, body);
  // A narrow panel scrolls the table sideways instead of squeezing the text columns.
  const scroll = el('div', 'criteria-scroll');
  scroll.append(table);
  box.append(scroll);
  return box;
}

export function tiersBox(t: TiersView): HTMLElement {
  const box = el('section', 'tiers');
  box.dataset.decided = t.decided;
  const who = t.decided === 'judge' ? `Decided by the judge (${t.judge?.model ?? '?'})` : `Decided by the screen (${t.screen.model})`;
  box.append(el('h2', undefined, 'Tiers'), el('p', 'decided', who));
  if (t.escalation.length) box.append(el('p', 'escalation', `Escalated: ${t.escalation.join(', ')}`));
  if (t.audited) box.append(el('p', 'audited', 'Audited: the judge also saw this row, the screen verdict stands.'));
  const dl = el('dl', 'tier-verdicts');
  dl.append(el('dt', undefined, `Screen · ${t.screen.model}`), el('dd', 'screen', t.screen.error ? `failed (${t.screen.error})` : t.screen.verdict));
  if (t.judge) dl.append(el('dt', undefined, `Judge · ${t.judge.model}`), el('dd', 'judge', t.judge.error ? `failed (${t.judge.error})` : t.judge.verdict));
  box.append(dl);
  return box;
}
