// Browser side of the rendered-prompt preview. Every string from the template or the dataset
// reaches the page through textContent; messages from the host are zod-checked before use.
import {
  hostMessageSchema,
  initialDataSchema,
  type HostMessage,
  type PreviewMessage,
  type PreviewState,
  type Problem,
  type SampleInfo,
  type SwapOrder,
  type WebviewMessage,
} from '../protocol/preview';
import { button, el, root, showRejection } from './lib/dom';
import { connect, start } from './lib/host';

const host = connect<WebviewMessage, PreviewState>();
const post = host.post;

const TOKEN_NOTE = 'An estimate: characters ÷ 4, rounded up. No tokenizer is used, so the model may count differently.';
const ORDER_TITLE: Record<SwapOrder['label'], string> = {
  single: 'Messages',
  AB: 'Order AB — responses as in the row',
  BA: 'Order BA — responses exchanged (position swap)',
};

function render(message: HostMessage): void {
  const nodes: Node[] = [toolbar(message)];
  if (message.type === 'errors') nodes.push(problems(message.title, message.errors, 'errors'));
  else {
    if (message.verdictRule) {
      const rule = el('p', 'verdict-rule');
      rule.append(el('strong', undefined, 'Verdict: '), document.createTextNode(message.verdictRule));
      nodes.push(rule);
    }
    if (message.sourceMapping) {
      const mapping = el('p', 'source-mapping');
      mapping.append(el('strong', undefined, 'Fields: '), document.createTextNode(message.sourceMapping));
      nodes.push(mapping);
    }
    for (const order of message.orders) nodes.push(orderView(order, message.orders.length > 1));
    if (message.diagnostics.length) nodes.push(problems(`${message.diagnostics.length} warning${message.diagnostics.length === 1 ? '' : 's'} (the prompt still renders)`, message.diagnostics, 'warnings'));
  }
  root.replaceChildren(...nodes);
  root.dataset.state = message.type;
}

function toolbar(message: HostMessage): HTMLElement {
  const bar = el('header', 'toolbar');
  const title = el('div', 'title');
  title.append(el('span', 'file', message.template.file));
  const t = message.template;
  if (t.name && t.kind) title.append(el('span', 'meta', `${t.name} · ${t.kind}`));
  bar.append(title, sampleControls(message.sample));
  return bar;
}

function sampleControls(sample: SampleInfo): HTMLElement {
  const box = el('div', 'sample');
  box.append(button(sample.dataset ?? 'Choose dataset…', 'Choose the dataset file the preview renders', () => post({ type: 'pickDataset' })));
  if (sample.dataset) {
    box.append(
      button('‹', 'Previous row', () => post({ type: 'stepRow', delta: -1 }), sample.row <= 1),
      button(sample.rows ? `Row ${sample.row} of ${sample.rows}` : `Row ${sample.row}`, 'Choose the dataset row', () => post({ type: 'pickRow' })),
      button('›', 'Next row', () => post({ type: 'stepRow', delta: 1 }), sample.rows > 0 && sample.row >= sample.rows),
    );
  }
  return box;
}

function orderView(order: SwapOrder, titled: boolean): HTMLElement {
  const section = el('section', 'order');
  section.dataset.order = order.label;
  if (titled) {
    const h = el('h2', undefined, ORDER_TITLE[order.label]);
    if (!order.sent) h.append(el('span', 'note', ' not sent: model.swap is false'));
    section.append(h);
  }
  for (const m of order.messages) section.append(messageView(m));
  const tokens = order.messages.reduce((n, m) => n + m.tokens, 0);
  const chars = order.messages.reduce((n, m) => n + m.chars, 0);
  const total = el('p', 'total', `Total: ${chars.toLocaleString()} characters · ≈ ${tokens.toLocaleString()} tokens`);
  total.title = TOKEN_NOTE;
  section.append(total);
  return section;
}

function messageView(m: PreviewMessage): HTMLElement {
  const article = el('article', `message role-${m.role}`);
  article.dataset.role = m.role;
  const head = el('header');
  const stats = el('span', 'stats', `${m.chars.toLocaleString()} characters · ≈ ${m.tokens.toLocaleString()} tokens`);
  stats.title = TOKEN_NOTE;
  head.append(el('span', 'role', m.role), stats);
  const pre = el('pre', 'content');
  pre.append(...markedText(m));
  article.append(head, pre);
  return article;
}

/** The content with each dataset value in a `span.value` (titled with its field), as text nodes only. */
function markedText(m: PreviewMessage): Node[] {
  const marks = [...m.values].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Node[] = [];
  let at = 0;
  for (const v of marks) {
    if (v.start < at || v.end > m.content.length) continue; // overlapping or stale: keep the text plain
    if (v.start > at) out.push(document.createTextNode(m.content.slice(at, v.start)));
    const span = el('span', 'value', m.content.slice(v.start, v.end));
    span.title = `{{${v.name}}}`;
    out.push(span);
    at = v.end;
  }
  if (at < m.content.length) out.push(document.createTextNode(m.content.slice(at)));
  return out;
}

function problems(title: string, items: Problem[], kind: 'errors' | 'warnings'): HTMLElement {
  const section = el('section', `problems ${kind}`);
  section.append(el('h2', undefined, title));
  const list = el('ul');
  for (const p of items) {
    const li = el('li', `problem ${p.severity}`);
    li.append(el('code', 'code', p.code));
    if (p.line !== undefined) {
      const line = p.line;
      const column = p.column ?? 1;
      li.append(button(`line ${line}`, 'Show in the template', () => post({ type: 'reveal', line, column })));
    }
    li.append(el('span', 'text', p.message));
    list.append(li);
  }
  section.append(list);
  return section;
}

start(host, {
  initial: initialDataSchema,
  messages: hostMessageSchema,
  show: (initial) => {
    if (initial.message) render(initial.message);
  },
  receive: render,
  reject: showRejection('preview', 'problems errors'),
});
