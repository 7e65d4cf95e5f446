// The rules of test/fixtures/ci/junit.xsd in code, so every JUnit file a unit test writes is held
// to them on any machine (xmllint checks the same files against the XSD where it is installed).
import type { XmlElement } from './xml';

const SECONDS = /^[0-9]+(\.[0-9]{1,3})?$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$/;
const COUNT = /^[0-9]+$/;

interface Rule {
  attrs: Record<string, { required?: boolean; pattern?: RegExp }>;
  /** Children in this order, each with its most occurrences. */
  children: Array<[string, number]>;
  text?: boolean;
}

const ANY = Number.POSITIVE_INFINITY;
const problem: Rule = { attrs: { message: {}, type: {} }, children: [], text: true };
const RULES: Record<string, Rule> = {
  testsuites: { attrs: { name: {}, tests: { pattern: COUNT }, failures: { pattern: COUNT }, errors: { pattern: COUNT }, time: { pattern: SECONDS } }, children: [['testsuite', ANY]] },
  testsuite: {
    attrs: { name: { required: true }, tests: { required: true, pattern: COUNT }, failures: { pattern: COUNT }, errors: { pattern: COUNT }, skipped: { pattern: COUNT }, time: { pattern: SECONDS }, timestamp: { pattern: TIMESTAMP } },
    children: [['properties', 1], ['testcase', ANY], ['system-out', 1], ['system-err', 1]],
  },
  properties: { attrs: {}, children: [['property', ANY]] },
  property: { attrs: { name: { required: true }, value: { required: true } }, children: [] },
  testcase: {
    attrs: { name: { required: true }, classname: {}, time: { pattern: SECONDS } },
    children: [['skipped', 1], ['error', ANY], ['failure', ANY], ['system-out', ANY], ['system-err', ANY]],
  },
  skipped: problem,
  error: problem,
  failure: problem,
  'system-out': { attrs: {}, children: [], text: true },
  'system-err': { attrs: {}, children: [], text: true },
};

/** The schema's complaints about `el` and its descendants; empty when it is valid. */
export function junitSchemaErrors(el: XmlElement, where = ''): string[] {
  const at = `${where}/${el.name}`;
  const rule = RULES[el.name];
  if (!rule) return [`${at}: no such element in the schema`];
  const errors: string[] = [];
  for (const [name, a] of Object.entries(rule.attrs)) {
    const v = el.attrs[name];
    if (v === undefined && a.required) errors.push(`${at}: the attribute ${name} is required`);
    if (v !== undefined && a.pattern && !a.pattern.test(v)) errors.push(`${at}: ${name}="${v}" does not match ${a.pattern}`);
  }
  for (const name of Object.keys(el.attrs)) if (!(name in rule.attrs)) errors.push(`${at}: the attribute ${name} is not in the schema`);
  if (!rule.text && el.text.trim() !== '') errors.push(`${at}: holds text`);
  let slot = 0;
  let seen = 0;
  for (const child of el.children) {
    while (slot < rule.children.length && rule.children[slot]![0] !== child.name) [slot, seen] = [slot + 1, 0];
    const allowed = rule.children[slot];
    if (!allowed) {
      errors.push(`${at}: <${child.name}> is not allowed here`);
      break;
    }
    if (++seen > allowed[1]) errors.push(`${at}: too many <${child.name}>`);
    errors.push(...junitSchemaErrors(child, at));
  }
  if (el.name === 'properties' && el.children.length === 0) errors.push(`${at}: needs a property`);
  return errors;
}
