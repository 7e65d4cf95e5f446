// JUnit XML as CI systems read it (Jenkins, GitLab, Azure DevOps, GitHub test-report actions):
// <testsuites> of <testsuite> of <testcase>, each with an optional <failure> or <error>. Every
// string is escaped, and control characters (those XML 1.0 forbids, DEL and C1) and lone surrogates
// are written as visible \uXXXX, so a hostile dataset string cannot break the file.

export interface JUnitProblem {
  /** One line: what failed, with the value and the threshold. */
  message: string;
  type: string;
  /** Longer text for the case's body. */
  detail?: string;
}

export interface JUnitCase {
  name: string;
  classname: string;
  failure?: JUnitProblem;
  /** The case could not be evaluated at all (unreadable input, no labelled rows). */
  error?: JUnitProblem;
  /** The measured value of a passing case, shown in the CI system's output tab. */
  systemOut?: string;
}

export interface JUnitSuite {
  name: string;
  /** ISO 8601 without a zone, as the Ant schema has it. */
  timestamp: string;
  /** Seconds the command took. */
  time: number;
  properties: ReadonlyArray<readonly [string, string]>;
  cases: readonly JUnitCase[];
  /** The text report, for the CI system's "output" tab. */
  systemOut?: string;
}

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function visible(text: string): string {
  return text.replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Element text: `&`, `<` and `>` escaped, forbidden characters made visible. */
export function xmlText(text: string): string {
  return visible(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute value in double quotes: also quotes, and tabs and line breaks kept as references (parsers would fold them to spaces). */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

function attrs(pairs: ReadonlyArray<readonly [string, string | number]>): string {
  return pairs.map(([k, v]) => ` ${k}="${xmlAttr(String(v))}"`).join('');
}

function problem(tag: 'failure' | 'error', p: JUnitProblem): string {
  const body = p.detail !== undefined ? xmlText(p.detail) : '';
  return `      <${tag}${attrs([['message', p.message], ['type', p.type]])}>${body}</${tag}>\n`;
}

function testcase(c: JUnitCase): string {
  const open = `    <testcase${attrs([['name', c.name], ['classname', c.classname], ['time', '0']])}`;
  const out = c.systemOut !== undefined ? `      <system-out>${xmlText(c.systemOut)}</system-out>\n` : '';
  if (!c.failure && !c.error && !out) return `${open}/>\n`;
  return `${open}>\n${c.error ? problem('error', c.error) : ''}${c.failure ? problem('failure', c.failure) : ''}${out}    </testcase>\n`;
}

function counts(cases: readonly JUnitCase[]): { tests: number; failures: number; errors: number } {
  return { tests: cases.length, failures: cases.filter((c) => c.failure && !c.error).length, errors: cases.filter((c) => c.error).length };
}

function testsuite(s: JUnitSuite): string {
  const n = counts(s.cases);
  const head = `  <testsuite${attrs([['name', s.name], ['tests', n.tests], ['failures', n.failures], ['errors', n.errors], ['skipped', 0], ['time', s.time.toFixed(3)], ['timestamp', s.timestamp]])}>\n`;
  const props = s.properties.length > 0 ? `    <properties>\n${s.properties.map(([k, v]) => `      <property${attrs([['name', k], ['value', v]])}/>\n`).join('')}    </properties>\n` : '';
  const out = s.systemOut !== undefined ? `    <system-out>${xmlText(s.systemOut)}</system-out>\n` : '';
  return `${head}${props}${s.cases.map(testcase).join('')}${out}  </testsuite>\n`;
}

/** The whole document; `name` labels the run in CI systems that show the root. */
export function junitXml(name: string, suites: readonly JUnitSuite[]): string {
  const all = counts(suites.flatMap((s) => s.cases));
  const time = suites.reduce((t, s) => t + s.time, 0);
  const root = `<testsuites${attrs([['name', name], ['tests', all.tests], ['failures', all.failures], ['errors', all.errors], ['time', time.toFixed(3)]])}>\n`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}${suites.map(testsuite).join('')}</testsuites>\n`;
}

/** Now, as the Ant schema's timestamp (no zone; UTC). */
export function junitTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19);
}
