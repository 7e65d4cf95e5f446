// DOM helpers every view shares. Text goes in through textContent only, so a string from a
// model, a dataset or a template stays text (a "<script>" in it is shown, never run).
export const root: HTMLElement = document.getElementById('root') ?? document.body;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function button(label: string, title: string, onClick: () => void, disabled = false): HTMLButtonElement {
  const b = el('button', 'action', label);
  b.type = 'button';
  b.title = title;
  // A one-character label (‹ ›) says nothing to a screen reader; the title does.
  if (label.length === 1) b.setAttribute('aria-label', title);
  b.disabled = disabled;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * What a page shows when the host sends something its protocol does not allow: the page is
 * replaced by a section (class `sectionClass`) naming the view and giving the reason.
 */
export function showRejection(view: string, sectionClass: string, reasonClass?: string): (reason: string) => void {
  return (reason) => {
    const box = el('section', sectionClass);
    box.append(el('h2', undefined, `The ${view} received a message it does not understand.`), el('p', reasonClass, reason));
    root.replaceChildren(box);
  };
}
