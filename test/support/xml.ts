// A small, strict XML 1.0 reader for the JUnit files the CLI writes: it refuses what a CI
// system's parser refuses (unbalanced or mismatched tags, unquoted or duplicate attributes,
// unknown entities, a raw `<` or `&`, characters XML forbids) and gives back the element tree.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const NAME = /^[A-Za-z_][\w.-]*/;

function decode(raw: string, where: string): string {
  if (/<|&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(raw)) throw new Error(`a raw < or & or an unknown entity in ${where}: ${JSON.stringify(raw.slice(0, 80))}`);
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (named[e]) return named[e];
    const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    const c = String.fromCodePoint(code);
    if (FORBIDDEN.test(c)) throw new Error(`a character reference to a forbidden character (${e}) in ${where}`);
    return c;
  });
}

function parseAttrs(text: string, tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let rest = text.trim();
  while (rest !== '') {
    const m = /^([A-Za-z_][\w.:-]*)\s*=\s*"([^"]*)"\s*/.exec(rest);
    if (!m) throw new Error(`a malformed attribute in <${tag}>: ${JSON.stringify(rest.slice(0, 60))}`);
    if (Object.hasOwn(attrs, m[1]!)) throw new Error(`a duplicate attribute ${m[1]} in <${tag}>`);
    attrs[m[1]!] = decode(m[2]!, `<${tag} ${m[1]}>`);
    rest = rest.slice(m[0].length);
  }
  return attrs;
}

/** The root element of `xml`; throws saying where the document is not well-formed. */
export function parseXml(xml: string): XmlElement {
  if (FORBIDDEN.test(xml)) throw new Error('the document holds a character XML 1.0 forbids');
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  if (body === xml) throw new Error('no XML declaration');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const text = body.slice(i, lt < 0 ? body.length : lt);
    if (stack.length > 0) stack[stack.length - 1]!.text += decode(text, 'text');
    else if (text.trim() !== '') throw new Error(`text outside the root: ${JSON.stringify(text.slice(0, 40))}`);
    if (lt < 0) break;
    const gt = body.indexOf('>', lt);
    if (gt < 0) throw new Error('an unclosed tag');
    const tag = body.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const open = stack.pop();
      if (open?.name !== tag.slice(1)) throw new Error(`</${tag.slice(1)}> closes <${open?.name ?? 'nothing'}>`);
      if (stack.length === 0) root = open;
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const inner = selfClosing ? tag.slice(0, -1) : tag;
    const name = NAME.exec(inner)?.[0];
    if (!name) throw new Error(`a tag without a name: <${tag}>`);
    if (root) throw new Error('a second root element');
    const el: XmlElement = { name, attrs: parseAttrs(inner.slice(name.length), name), children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(el);
    if (selfClosing) {
      if (stack.length === 0) root = el;
    } else stack.push(el);
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every descendant element named `name`, in document order. */
export function elements(el: XmlElement, name: string): XmlElement[] {
  return el.children.flatMap((c) => [...(c.name === name ? [c] : []), ...elements(c, name)]);
}
