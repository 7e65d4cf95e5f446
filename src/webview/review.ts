// Browser side of the review view: one row at a time, keyboard first. Digits label a scale (0/1
// for pass/fail), A/B/T a pair, S skips, U undoes, arrows move; the comment box takes any text.
// Every string from the file reaches the page through textContent; host messages are zod-checked.
import {
  hostMessageSchema,
  initialDataSchema,
  type AgreementView,
  type HostMessage,
  type ItemView,
  type ReviewState,
  type ReviewView,
  type ShownLabel,
  type WebviewMessage,
} from '../protocol/review';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, ReviewState>();
const post = host.post;
let current: ReviewView | undefined;

function percent(v: number | null): string {
  return v === null ? '—' : `${(v * 100).toFixed(0)}%`;
}

function fixed(v: number | null): string {
  // No "-0.00": a kappa a hair below zero reads as zero.
  return v === null ? '—' : Math.abs(v) < 0.005 ? '0.00' : v.toFixed(2);
}

function render(message: HostMessage): void {
  switch (message.type) {
    case 'state':
      current = message.view;
      draw(message.view);
      return;
    case 'error': {
      const box = el('section', 'problems');
      box.append(el('h2', undefined, 'Review stopped'), el('p', 'message', message.message));
      root.replaceChildren(box);
      root.dataset.state = 'error';
      return;
    }
    case 'notice': {
      const n = root.querySelector<HTMLElement>('.notice');
      if (n) n.textContent = message.text;
      return;
    }
  }
}

function draw(v: ReviewView): void {
  // Keep what the reviewer was typing in the comment box across redraws of the same row.
  const typed = root.querySelector<HTMLTextAreaElement>('textarea.comment');
  const keep = typed && typed.dataset.key === v.item?.key ? typed.value : undefined;
  root.replaceChildren(toolbar(v), agreement(v.agreement, v), previous(v), v.item ? item(v, v.item, keep) : done(v), el('p', 'notice'));
  root.dataset.state = 'review';
  root.dataset.labelled = String(v.labelled);
  root.dataset.key = v.item?.key ?? '';
}

function toolbar(v: ReviewView): HTMLElement {
  const bar = el('header', 'toolbar');
  const title = el('div', 'title');
  title.append(el('span', 'metric', v.metric), el('span', 'meta', ` · ${v.kind} · ${v.display}`));
  // Which template the review uses (for the scale, the inputs and Add as Example): the user can check it.
  title.append(el('span', 'template', v.template ? ` · template ${v.template}` : ' · no template found'));
  const left = [v.failed ? `${v.failed} failed row${v.failed === 1 ? '' : 's'} left out` : '', v.unjudged ? `${v.unjudged} without a verdict left out` : ''].filter(Boolean).join(', ');
  const order = v.order === 'uncertain' ? 'uncertain first' : `random sample (seed ${v.seed})`;
  const progress = el('div', 'progress', `Labelled ${v.labelled} of ${v.total} · ${order}${left ? ` · ${left}` : ''}`);
  progress.dataset.labelled = String(v.labelled);
  progress.dataset.total = String(v.total);
  const who = el('div', 'who', `as ${v.annotator} → ${v.labelsFile}${v.blind ? ' · blind' : ''}`);
  const other = v.order === 'uncertain' ? 'random' : 'uncertain';
  const actions = el('div', 'actions');
  actions.append(
    button(v.order === 'uncertain' ? 'Random sample' : 'Uncertain first', `Order the queue: ${other === 'random' ? 'a seeded random sample (an unbiased estimate)' : 'uncertain rows first'}`, () => post({ type: 'setOrder', order: other })),
    button('Calibration', 'Open the calibration view of this file (it reads the labels file too)', () => post({ type: 'openCalibration' })),
  );
  bar.append(title, progress, who, actions);
  return bar;
}

function agreement(a: AgreementView, v: ReviewView): HTMLElement {
  const box = el('section', 'agreement');
  box.dataset.n = String(a.n);
  const others = v.annotators.filter((x) => x !== v.annotator).length;
  const heading = `Judge vs human labels so far${others ? ` (majority of ${v.annotators.length} annotators)` : ''}`;
  box.append(el('h2', undefined, heading));
  if (a.n === 0) {
    box.append(el('p', 'empty', 'No labelled row yet: label a few to see how often the judge agrees.'));
  } else {
    const figures = el('div', 'figures');
    const card = (key: string, name: string, value: string, title: string): HTMLElement => {
      const c = el('div', 'figure-card');
      c.dataset.key = key;
      c.title = title;
      c.append(el('div', 'name', name), el('span', 'figure', value));
      return c;
    };
    figures.append(
      card('accuracy', 'Agreement', `${a.agree}/${a.n} = ${percent(a.accuracy)}`, 'Rows where the judge gave the human label'),
      card('interval', '95% interval (Wilson)', `${percent(a.low)} – ${percent(a.high)}`, 'Wilson score interval of the agreement rate'),
      card('balanced_accuracy', 'Balanced accuracy', fixed(a.balanced_accuracy), 'Mean recall over the labels humans used'),
      card('cohen_kappa', "Cohen's κ", fixed(a.cohen_kappa), 'Agreement corrected for chance; undefined while all labels are equal'),
    );
    box.append(figures);
  }
  const target = el('p', 'target');
  const input = el('input', 'width');
  input.type = 'number';
  input.min = '0.02';
  input.max = '0.9';
  input.step = '0.01';
  input.value = String(a.target_width);
  input.title = 'Width of the 95% interval you want (0.2 = ±10 points)';
  input.addEventListener('change', () => {
    const w = Number(input.value);
    if (w > 0 && w < 1) post({ type: 'setWidth', width: w });
  });
  const need = a.more_needed === null ? 'more labels than this file can give' : a.more_needed === 0 ? 'reached' : `about ${a.more_needed} more label${a.more_needed === 1 ? '' : 's'}`;
  target.append('Interval under ', input, ` wide: ${need}.`);
  target.dataset.moreNeeded = String(a.more_needed ?? '');
  box.append(target);
  return box;
}

function item(v: ReviewView, it: ItemView, typed: string | undefined): HTMLElement {
  const card = el('section', 'item');
  card.dataset.key = it.key;
  card.dataset.row = String(it.row);
  if (it.shown) card.dataset.shown = it.shown;
  const head = el('div', 'item-head');
  head.append(el('span', 'where', `Row ${it.row} · ${it.index + 1} of ${v.total}`));
  for (const r of it.reasons) head.append(el('span', 'reason', r));
  if (it.others > 0) head.append(el('span', 'others', `${it.others} other annotator${it.others === 1 ? '' : 's'} labelled this row`));
  card.append(head);
  for (const f of it.inputs) card.append(field(f.name, f.value));
  if (it.responses) {
    const pair = el('div', 'pair');
    pair.append(field('Response A', it.responses[0].value, 'response'), field('Response B', it.responses[1].value, 'response'));
    card.append(pair);
  }
  card.append(labelBar(v, it), comment(it, typed), verdict(v, it));
  return card;
}

function field(name: string, value: string, className = 'input'): HTMLElement {
  const box = el('div', `field ${className}`);
  box.append(el('div', 'name', name), el('pre', 'value', value));
  return box;
}

function choices(v: ReviewView): { label: ShownLabel; key: string; text: string }[] {
  if (v.kind === 'pairwise') return [
    { label: 'A', key: 'A', text: 'A is better' },
    { label: 'B', key: 'B', text: 'B is better' },
    { label: 'TIE', key: 'T', text: 'Tie' },
  ];
  const s = v.scale ?? { min: 1, max: 5 };
  const out: { label: ShownLabel; key: string; text: string }[] = [];
  for (let x = s.min; x <= s.max; x++) out.push({ label: x, key: x >= 0 && x <= 9 ? String(x) : '', text: s.min === 0 && s.max === 1 ? (x === 1 ? 'pass' : 'fail') : String(x) });
  return out;
}

function labelBar(v: ReviewView, it: ItemView): HTMLElement {
  const bar = el('div', 'labels');
  for (const c of choices(v)) {
    const b = button(c.key ? `${c.text} [${c.key}]` : c.text, `Label ${String(c.label)}`, () => give(c.label));
    b.classList.add('label');
    b.dataset.label = String(c.label);
    if (it.mine === c.label) b.classList.add('chosen');
    bar.append(b);
  }
  bar.append(
    button('Skip [S]', 'Next row without a label', () => post({ type: 'skip' })),
    button('Undo [U]', 'Undo your last label (appends the label before it, or a retraction)', () => post({ type: 'undo' })),
    button('‹', 'Previous row [←]', () => post({ type: 'move', delta: -1 })),
    button('›', 'Next row [→]', () => post({ type: 'move', delta: 1 })),
  );
  return bar;
}

function comment(it: ItemView, typed: string | undefined): HTMLElement {
  const area = el('textarea', 'comment');
  area.placeholder = 'Comment (optional; saved with the label). Esc returns the keys to labelling.';
  area.rows = 2;
  area.value = typed ?? it.comment;
  area.dataset.key = it.key;
  return area;
}

function verdict(v: ReviewView, it: ItemView): HTMLElement {
  const box = el('section', 'verdict');
  if (!it.judge) {
    box.dataset.hidden = 'true';
    box.append(el('p', 'hidden-note', v.blind ? "The judge's verdict is hidden until you label this row (blind review)." : 'The judge gave no verdict on this row.'));
    return box;
  }
  const j = it.judge;
  box.dataset.hidden = 'false';
  if (j.agree !== null) box.dataset.agree = String(j.agree);
  const line = el('p', 'judge');
  const mine = it.mine === null ? '' : ` · you: ${String(it.mine)}`;
  const conf = j.confidence === null ? '' : ` · confidence ${j.confidence.toFixed(2)}`;
  line.append(el('span', 'name', 'Judge: '), el('span', 'value', j.verdict), `${conf}${mine}`);
  if (j.agree !== null) line.append(el('span', j.agree ? 'agree' : 'disagree', j.agree ? ' agrees' : ' disagrees'));
  box.append(line, el('pre', 'justification', j.justification));
  if (it.canAddExample) {
    const add = button('Add as Example', "Add this row to the template's Examples with your label as the expected reply", () => post({ type: 'addExample', key: it.key }));
    add.classList.add('add-example');
    box.append(add);
  }
  return box;
}

/** What the reviewer just did, with the judge's verdict now revealed. */
function previous(v: ReviewView): HTMLElement {
  const p = v.previous;
  const box = el('div', 'previous');
  if (!p) return box;
  box.dataset.key = p.key;
  if (p.agree !== null) box.dataset.agree = String(p.agree);
  const verdict = p.verdict === null ? 'the judge gave no verdict' : `judge ${p.verdict}`;
  const outcome = p.agree === null ? '' : p.agree ? ' · agrees' : ' · disagrees';
  box.append(el('span', 'text', `Row ${p.row}: you ${String(p.mine)}, ${verdict}${outcome}`));
  if (p.canAddExample) {
    const add = button('Add as Example', "Add this row to the template's Examples with your label as the expected reply", () => post({ type: 'addExample', key: p.key }));
    add.classList.add('add-example');
    box.append(add);
  }
  return box;
}

function done(v: ReviewView): HTMLElement {
  const box = el('section', 'done');
  box.append(el('p', undefined, v.total === 0 ? 'No row to review: the file has no judged rows for this metric.' : 'Every row in the queue is labelled.'));
  return box;
}

function give(label: ShownLabel): void {
  const it = current?.item;
  if (!it) return;
  const text = root.querySelector<HTMLTextAreaElement>('textarea.comment')?.value ?? '';
  post({ type: 'label', key: it.key, label, comment: text });
}

document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement | null;
  if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT')) {
    if (e.key === 'Escape') target.blur();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey || !current) return;
  const v = current;
  const key = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  let handled = true;
  if (key === 'S') post({ type: 'skip' });
  else if (key === 'U') post({ type: 'undo' });
  else if (key === 'ArrowLeft') post({ type: 'move', delta: -1 });
  else if (key === 'ArrowRight') post({ type: 'move', delta: 1 });
  else if (key === 'C') root.querySelector<HTMLTextAreaElement>('textarea.comment')?.focus();
  else {
    const choice = choices(v).find((c) => c.key !== '' && c.key === key);
    if (choice) give(choice.label);
    else handled = false;
  }
  if (handled) e.preventDefault();
});

start(host, {
  initial: initialDataSchema,
  messages: hostMessageSchema,
  show: (initial) => {
    if (initial.message) render(initial.message);
  },
  receive: render,
  reject: showRejection('review view', 'problems'),
});
