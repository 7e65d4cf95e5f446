// calibrate and compare for CI: JUnit XML a CI system parses (each gate or figure a test case,
// value and threshold in the failure message) and a Markdown job summary whose tables survive
// hostile dataset strings.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { calibrateCommand } from '../../src/cli/commands/calibrate';
import { compareCommand } from '../../src/cli/commands/compare';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError } from '../../src/cli/io';
import { xmlAttr, xmlText } from '../../src/core/ci/junit';
import { mdCell } from '../../src/core/ci/markdown';
import { captureIO, tempDir, writeJsonl } from '../support/judgeFixtures';
import { junitSchemaErrors } from '../support/junitSchema';
import { elements, parseXml, type XmlElement } from '../support/xml';
import { FIXTURES } from './calibration.reference.test';
import { COMPARE_FIXTURES } from './compare.reference.test';

async function calibrate(args: string[], cwd = FIXTURES, env: Record<string, string> = {}) {
  const io = captureIO(cwd, env);
  const code = await calibrateCommand(args, io);
  return { code, out: io.out, err: io.err };
}

async function compare(args: string[], cwd = COMPARE_FIXTURES, env: Record<string, string> = {}) {
  const io = captureIO(cwd, env);
  const code = await compareCommand(args, io);
  return { code, out: io.out, err: io.err };
}

function junit(file: string): XmlElement {
  const root = parseXml(fs.readFileSync(file, 'utf8'));
  assert.equal(root.name, 'testsuites');
  assert.deepEqual(junitSchemaErrors(root), []);
  const suites = elements(root, 'testsuite');
  assert.equal(suites.length, 1);
  const cases = elements(root, 'testcase');
  // The counts CI systems show are the counts of the cases.
  const failures = cases.filter((c) => c.children.some((x) => x.name === 'failure')).length;
  const errors = cases.filter((c) => c.children.some((x) => x.name === 'error')).length;
  for (const el of [root, suites[0]!]) assert.deepEqual([el.attrs['tests'], el.attrs['failures'], el.attrs['errors']], [String(cases.length), String(failures), String(errors)]);
  return root;
}

function caseNamed(root: XmlElement, name: string): XmlElement {
  const found = elements(root, 'testcase').find((c) => c.attrs['name'] === name);
  assert.ok(found, `no test case "${name}" in ${elements(root, 'testcase').map((c) => c.attrs['name']).join(', ')}`);
  return found;
}

/** Each table's rows have the same number of cells as its header: no pipe or line break leaked. */
function assertTablesHold(md: string): void {
  const cells = (line: string) => line.replace(/\\\|/g, '').split('|').length;
  const tables: string[][] = [];
  let previous = '';
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) {
      if (!previous.startsWith('|')) tables.push([]);
      tables[tables.length - 1]!.push(line);
    }
    previous = line;
  }
  assert.ok(tables.length > 0, `no table in\n${md}`);
  for (const lines of tables) {
    assert.match(lines[1] ?? '', /^\| --- (\| --- )*\|$/, `a table without its separator:\n${lines.join('\n')}`);
    for (const l of lines) assert.equal(cells(l), cells(lines[0]!), `a row of another width:\n${lines.join('\n')}`);
  }
}

describe('calibrate --junit and --summary', () => {
  it('writes each gate as a passing test case with its value, coverage included', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'reports', 'calibrate.xml');
    const r = await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.7', '--junit', out]);
    assert.equal(r.code, EXIT_OK, r.err);
    const root = junit(out);
    assert.deepEqual(elements(root, 'testcase').map((c) => c.attrs['name']), ['coverage >= 1', 'accuracy >= 0.7']);
    assert.equal(elements(root, 'failure').length, 0);
    assert.match(caseNamed(root, 'accuracy >= 0.7').children[0]!.text, /^accuracy = 0\.750 \(minimum 0\.7\)$/);
    const props = Object.fromEntries(elements(root, 'property').map((p) => [p.attrs['name'], p.attrs['value']]));
    assert.equal(props['n'], '12');
    assert.equal(props['accuracy'], '0.750');
    assert.match(elements(root, 'testsuite')[0]!.children.at(-1)!.text, /Confusion matrix/);
  });

  it('fails the gate below its minimum, naming value and minimum, and exits 1', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'calibrate.xml');
    const r = await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.8', '--min', 'cohen_kappa=0.2', '--junit', out]);
    assert.equal(r.code, EXIT_FINDINGS);
    const root = junit(out);
    const failure = caseNamed(root, 'accuracy >= 0.8').children.find((c) => c.name === 'failure');
    assert.ok(failure);
    assert.equal(failure.attrs['message'], 'accuracy = 0.750 is below the minimum 0.8');
    assert.equal(failure.attrs['type'], 'threshold');
    assert.ok(!caseNamed(root, 'cohen_kappa >= 0.2').children.some((c) => c.name === 'failure'));
    assert.equal(elements(root, 'testsuites').length, 0, 'no nested root');
    assert.equal(root.attrs['failures'], '1');
  });

  it('appends the summary to $GITHUB_STEP_SUMMARY, failed gates before the tables', async () => {
    const dir = tempDir();
    const summary = path.join(dir, 'step-summary.md');
    fs.writeFileSync(summary, '# earlier step\n');
    const r = await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.8'], FIXTURES, { GITHUB_STEP_SUMMARY: summary });
    assert.equal(r.code, EXIT_FINDINGS);
    const md = fs.readFileSync(summary, 'utf8');
    assert.ok(md.startsWith('# earlier step\n### Judge calibration: safe (pointwise\\_binary\\.csv)'), md);
    assert.match(md, /❌ 1 of 2 gates failed/);
    assert.ok(md.indexOf('- accuracy = 0\\.750 is below the minimum 0\\.8') < md.indexOf('| Gate |'), md);
    assert.match(md, /\| accuracy \| 0\.750 \| 0\.8 \| ❌ fail \|/);
    assertTablesHold(md);
  });

  it('writes --summary F instead of $GITHUB_STEP_SUMMARY when both are given', async () => {
    const dir = tempDir();
    const github = path.join(dir, 'github.md');
    const mine = path.join(dir, 'mine.md');
    await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--summary', mine], FIXTURES, { GITHUB_STEP_SUMMARY: github });
    assert.ok(!fs.existsSync(github));
    assert.match(fs.readFileSync(mine, 'utf8'), /No `--min` gate: figures only/);
  });

  it('escapes a hostile metric and file name in the XML and the summary tables', async () => {
    const dir = tempDir();
    const metric = 'q<&>"\'|x\u0001';
    const name = 'a|b <i>&.jsonl';
    const rows = [0, 1, 1, 0, 1].map((h, i) => ({ _row: i + 1, prompt: `p${i}`, response: 'r', [`${metric}/human_rating`]: h, [`${metric}/score`]: i % 2 }));
    writeJsonl(path.join(dir, name), rows);
    const xml = path.join(dir, 'out.xml');
    const md = path.join(dir, 'out.md');
    const r = await calibrate([name, '--metric', metric, '--min', 'accuracy=0.9', '--junit', xml, '--summary', md], dir);
    assert.equal(r.code, EXIT_FINDINGS, r.err);
    const root = junit(xml);
    const props = Object.fromEntries(elements(root, 'property').map((p) => [p.attrs['name'], p.attrs['value']]));
    assert.equal(props['metric'], 'q<&>"\'|x\\u0001', 'the control character is written visibly');
    assert.equal(props['file'], name);
    const summary = fs.readFileSync(md, 'utf8');
    assert.ok(!/<i>|\u0001/.test(summary), summary);
    assertTablesHold(summary);
  });

  it('names the failed rows by kind in the coverage failure and first in the summary', async () => {
    const dir = tempDir();
    writeJsonl(path.join(dir, 'r.jsonl'), [
      { _row: 1, prompt: 'a', 'm/human_rating': 1, 'm/score': 1 },
      { _row: 2, prompt: 'b', 'm/human_rating': 0, 'm/score': 0 },
      { _row: 3, prompt: 'c', 'm/human_rating': 1, 'm/error': 'no reply in time', 'm/error_kind': 'timeout' },
    ]);
    const r = await calibrate(['r.jsonl', '--metric', 'm', '--min', 'accuracy=0.5', '--junit', 'out.xml', '--summary', 'out.md'], dir);
    assert.equal(r.code, EXIT_FINDINGS);
    const failure = caseNamed(junit(path.join(dir, 'out.xml')), 'coverage >= 1').children.find((c) => c.name === 'failure');
    assert.equal(failure?.attrs['message'], 'coverage = 0.667 is below the minimum 1; the judge failed on 1 labelled row(s): timeout 1');
    const lines = fs.readFileSync(path.join(dir, 'out.md'), 'utf8').split('\n');
    assert.equal(lines[2], '**Failures:** the judge failed on 1 labelled row\\(s\\): timeout 1, left out of the figures.');
  });

  it('reports a calibrate that cannot compute figures as an erroring test case, and still exits 2', async () => {
    const dir = tempDir();
    writeJsonl(path.join(dir, 'r.jsonl'), [{ _row: 1, prompt: 'p', 'm/score': 1 }]);
    const xml = path.join(dir, 'out.xml');
    await assert.rejects(calibrate(['r.jsonl', '--metric', 'm', '--min', 'accuracy=0.5', '--junit', xml], dir), UsageError);
    const root = junit(xml);
    const error = elements(root, 'error')[0];
    assert.ok(error);
    assert.match(error.attrs['message'] ?? '', /^r\.jsonl: no column "m\/human_rating" with human labels/);
    assert.equal(elements(root, 'testcase').length, 1);
  });
});

describe('compare --junit and --summary', () => {
  const a = 'pairwise_a.results.jsonl';
  const b = 'pairwise_b.results.jsonl';

  it('writes the runs’ figures and each human figure as passing cases when B is better', async () => {
    const dir = tempDir();
    const xml = path.join(dir, 'compare.xml');
    const r = await compare([a, b, '--metric', 'pref', '--metric-b', 'pref_v2', '--fail-if-worse', 'balanced_accuracy', '--junit', xml]);
    assert.equal(r.code, EXIT_OK, r.err);
    const root = junit(xml);
    const names = elements(root, 'testcase').map((c) => c.attrs['name']);
    assert.deepEqual(names.slice(0, 3), ['runs: agreement', 'runs: cohen_kappa', 'runs: flipped']);
    assert.ok(names.includes('human: balanced_accuracy') && names.includes('human: accuracy'), names.join(', '));
    assert.ok(!names.includes('human: spearman'), 'no pointwise figure for a pairwise metric');
    assert.equal(elements(root, 'failure').length, 0);
    assert.match(caseNamed(root, 'human: balanced_accuracy').children[0]!.text, /^B is better than A: balanced accuracy/);
  });

  it('fails only the --fail-if-worse figure when B is worse, with the evidence and the rule', async () => {
    const dir = tempDir();
    const xml = path.join(dir, 'compare.xml');
    const md = path.join(dir, 'summary.md');
    const r = await compare([b, a, '--metric', 'pref_v2', '--metric-b', 'pref', '--fail-if-worse', 'accuracy', '--junit', xml, '--summary', md]);
    assert.equal(r.code, EXIT_FINDINGS);
    const root = junit(xml);
    const failures = elements(root, 'failure');
    assert.equal(failures.length, 1);
    assert.match(failures[0]!.attrs['message'] ?? '', /^B is worse than A: accuracy .* McNemar exact p = 0\.0042\. \(--fail-if-worse accuracy fails when McNemar p < 0\.05 with B worse\)$/);
    assert.equal(elements(root, 'testcase').find((c) => c.children.some((x) => x.name === 'failure'))?.attrs['name'], 'human: accuracy');
    const summary = fs.readFileSync(md, 'utf8');
    const verdict = summary.split('\n').find((l) => /^(❌|✅)/.test(l)) ?? '';
    assert.match(verdict, /^❌ B is worse than A/);
    assert.ok(summary.indexOf(verdict) < summary.indexOf('| Between the runs |'), summary);
    assertTablesHold(summary);
  });

  it('puts the failed rows first in the summary, before the verdict and the tables', async () => {
    const md = path.join(tempDir(), 'summary.md');
    const r = await compare(['pointwise_a.results.jsonl', 'pointwise_b.results.jsonl', '--metric', 'helpfulness', '--summary', md]);
    assert.equal(r.code, EXIT_OK, r.err);
    const lines = fs.readFileSync(md, 'utf8').split('\n');
    assert.equal(lines[2], '**Failures:** rows without a verdict (failed), left out of the figures: 0 in A, 1 in B.');
    assert.match(lines[4] ?? '', /^B is not distinguishable from A/);
  });

  it('makes the gate an erroring case when the rows have no human labels (exit 2)', async () => {
    const dir = tempDir();
    writeJsonl(path.join(dir, 'a.jsonl'), [{ prompt: 'x', _row: 1, 'm/score': 1 }]);
    const xml = path.join(dir, 'out.xml');
    const r = await compare(['a.jsonl', 'a.jsonl', '--metric', 'm', '--fail-if-worse', 'accuracy', '--junit', xml], dir);
    assert.equal(r.code, EXIT_USAGE);
    const error = caseNamed(junit(xml), 'human: accuracy').children.find((c) => c.name === 'error');
    assert.match(error?.attrs['message'] ?? '', /no human labels/);
  });

  it('keeps the summary whole when the file names hold pipes, line breaks and HTML', async () => {
    const dir = tempDir();
    const names = ['good|bad.jsonl', 'multi\nline <b>x.jsonl'];
    fs.copyFileSync(path.join(COMPARE_FIXTURES, a), path.join(dir, names[0]!));
    fs.copyFileSync(path.join(COMPARE_FIXTURES, b), path.join(dir, names[1]!));
    const md = path.join(dir, 'summary.md');
    const xml = path.join(dir, 'out.xml');
    const r = await compare([names[0]!, names[1]!, '--metric', 'pref', '--metric-b', 'pref_v2', '--summary', md, '--junit', xml], dir);
    assert.equal(r.code, EXIT_OK, r.err);
    const summary = fs.readFileSync(md, 'utf8');
    assert.equal(summary.split('\n')[0], '### Judge compare: pref — A good\\|bad\\.jsonl vs B multi line &lt;b&gt;x\\.jsonl');
    assert.ok(!summary.includes('<b>'), summary);
    assertTablesHold(summary);
    const props = Object.fromEntries(elements(junit(xml), 'property').map((p) => [p.attrs['name'], p.attrs['value']]));
    assert.equal(props['b'], names[1], 'the line break survives in the attribute');
  });
});

describe('the JUnit files against the schema CI systems read', () => {
  const XSD = path.resolve(__dirname, '../../../test/fixtures/ci/junit.xsd');

  it('holds a passing, a failing and an erroring calibrate and compare to the schema (and to the XSD, with xmllint)', async () => {
    const dir = tempDir();
    const files = ['pass', 'fail', 'error', 'cmp-pass', 'cmp-fail', 'cmp-error', 'hostile'].map((n) => path.join(dir, `${n}.xml`));
    const [pass, fail, error, cmpPass, cmpFail, cmpError, hostile] = files as [string, string, string, string, string, string, string];
    await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.7', '--junit', pass]);
    await calibrate(['pointwise_binary.csv', '--metric', 'safe', '--min', 'accuracy=0.8', '--junit', fail]);
    writeJsonl(path.join(dir, 'r.jsonl'), [{ _row: 1, prompt: 'p', 'm/score': 1 }]);
    await assert.rejects(calibrate(['r.jsonl', '--metric', 'm', '--junit', error], dir));
    await compare(['pairwise_a.results.jsonl', 'pairwise_b.results.jsonl', '--metric', 'pref', '--metric-b', 'pref_v2', '--fail-if-worse', 'accuracy', '--junit', cmpPass]);
    await compare(['pairwise_b.results.jsonl', 'pairwise_a.results.jsonl', '--metric', 'pref_v2', '--metric-b', 'pref', '--fail-if-worse', 'accuracy', '--junit', cmpFail]);
    await compare(['r.jsonl', 'r.jsonl', '--metric', 'm', '--fail-if-worse', 'accuracy', '--junit', cmpError], dir);
    const metric = 'x\u0007<]]>&"\u2028y';
    writeJsonl(path.join(dir, 'h.jsonl'), [0, 1, 1].map((h, i) => ({ _row: i + 1, [`${metric}/human_rating`]: h, [`${metric}/score`]: 1 })));
    await calibrate(['h.jsonl', '--metric', metric, '--min', 'accuracy=0.9', '--junit', hostile], dir);
    for (const f of files) assert.deepEqual(junitSchemaErrors(parseXml(fs.readFileSync(f, 'utf8'))), [], f);
    if (spawnSync('xmllint', ['--version']).error) return; // the XSD itself, where libxml2-utils is installed
    const r = spawnSync('xmllint', ['--noout', '--schema', XSD, ...files], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.split('\n').filter((l) => / validates$/.test(l)).length, files.length, r.stderr);
  });

  const BAD = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="s" tests="1" time="soon"><testcase classname="c"/><properties/></testsuite></testsuites>\n';

  it('the schema refuses what CI readers refuse: a case without a name, a time that is not seconds, properties after the cases', function () {
    assert.deepEqual(junitSchemaErrors(parseXml(BAD)), [
      '/testsuites/testsuite: time="soon" does not match /^[0-9]+(\\.[0-9]{1,3})?$/',
      '/testsuites/testsuite/testcase: the attribute name is required',
      '/testsuites/testsuite: <properties> is not allowed here',
    ]);
    if (spawnSync('xmllint', ['--version']).error) return; // the XSD itself, where libxml2-utils is installed
    const bad = path.join(tempDir(), 'bad.xml');
    fs.writeFileSync(bad, BAD);
    const r = spawnSync('xmllint', ['--noout', '--schema', XSD, bad], { encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /'time'.*'soon'/);
  });
});

describe('escaping for CI files', () => {
  it('escapes XML text and attributes and makes forbidden characters visible', () => {
    assert.equal(xmlText('a<b>&c\u0000\uFFFF\u001B[31m\u0085'), 'a&lt;b&gt;&amp;c\\u0000\\uffff\\u001b[31m\\u0085');
    assert.equal(xmlAttr('"x"\n\'y\'\t'), '&quot;x&quot;&#10;&apos;y&apos;&#9;');
    assert.equal(xmlText('\uD800 lone, pair \uD83D\uDE00'), '\\ud800 lone, pair \uD83D\uDE00');
  });

  it('keeps a Markdown cell on one line with its pipes and markup escaped', () => {
    assert.equal(mdCell('a|b\r\nc [x](http://e) <img> *y*'), 'a\\|b c \\[x\\]\\(http://e\\) &lt;img&gt; \\*y\\*');
  });
});
