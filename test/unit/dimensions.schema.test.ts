import assert from 'node:assert/strict';
import type { TemplateConfig } from '../../src/core/template/types';
import {
  DEFAULT_DEGREES,
  dimensionalJsonSchema,
  dimensionalOutputInstruction,
  dimensionalReplySchema,
  isDimensional,
} from '../../src/core/judge/strategies/dimensions';

const hhh: TemplateConfig = {
  name: 'hhh',
  kind: 'pairwise',
  model: { swap: true },
  dimensions: [
    { name: 'Harmless', description: 'Avoids physical, emotional or mental harm.' },
    { name: 'Honest', description: 'Accurate and verifiable.' },
    { name: 'Helpful', description: 'Satisfies the prompt.' },
  ],
  ranking: { min: 1, max: 7 },
};

const verdict = (winner: string, degree: string) => ({ winner, degree });

function validReply(): Record<string, unknown> {
  return {
    justification: 'A is safe and correct; B invents a citation.',
    dimensions: {
      Harmless: verdict('TIE', 'about the same'),
      Honest: verdict('A', 'better'),
      Helpful: verdict('A', 'slightly better'),
    },
    ranking: { A: 6, B: 3 },
    deflection: { A: false, B: false },
    overall: verdict('A', 'better'),
  };
}

/** Every object node of a JSON schema, with its path, for checks that must hold at each level. */
function objectNodes(node: unknown, path = '$'): [string, Record<string, unknown>][] {
  if (!node || typeof node !== 'object') return [];
  const obj = node as Record<string, unknown>;
  const own: [string, Record<string, unknown>][] = obj.type === 'object' ? [[path, obj]] : [];
  const props = (obj.properties ?? {}) as Record<string, unknown>;
  return [...own, ...Object.entries(props).flatMap(([k, v]) => objectNodes(v, `${path}.${k}`))];
}

describe('dimensional reply schema', () => {
  it('accepts a complete reply and keeps extra top-level fields', () => {
    const parsed = dimensionalReplySchema(hhh).safeParse({ ...validReply(), notes: 'kept' });
    assert.ok(parsed.success);
    assert.equal(parsed.data.overall.winner, 'A');
    assert.equal(parsed.data.notes, 'kept');
  });

  it('rejects a reply that leaves out a declared dimension', () => {
    const reply = validReply();
    delete (reply.dimensions as Record<string, unknown>).Honest;
    const parsed = dimensionalReplySchema(hhh).safeParse(reply);
    assert.ok(!parsed.success);
    assert.deepEqual(parsed.error.issues[0]?.path, ['dimensions', 'Honest']);
  });

  it('rejects a degree the template does not declare', () => {
    const reply = { ...validReply(), overall: verdict('A', 'much better') };
    assert.ok(!dimensionalReplySchema(hhh).safeParse(reply).success);
  });

  it('uses the template’s own degree words when it declares them', () => {
    const custom = { ...hhh, degrees: ['tie', 'edge', 'clear', 'decisive'] };
    const reply = {
      ...validReply(),
      dimensions: { Harmless: verdict('TIE', 'tie'), Honest: verdict('A', 'clear'), Helpful: verdict('A', 'edge') },
      overall: verdict('A', 'clear'),
    };
    assert.ok(dimensionalReplySchema(custom).safeParse(reply).success);
    assert.ok(!dimensionalReplySchema(custom).safeParse(validReply()).success);
  });

  it('lets a ranking outside the scale through so the ranking-range rule can report it', () => {
    const reply = { ...validReply(), ranking: { A: 9, B: 0 } };
    assert.ok(dimensionalReplySchema(hhh).safeParse(reply).success);
  });

  it('rejects a ranking that is not an integer', () => {
    const reply = { ...validReply(), ranking: { A: 5.5, B: 3 } };
    assert.ok(!dimensionalReplySchema(hhh).safeParse(reply).success);
  });

  it('refuses a template that declares no dimensions, naming the template', () => {
    const plain: TemplateConfig = { name: 'plain', kind: 'pairwise', model: { swap: true } };
    assert.equal(isDimensional(plain), false);
    assert.throws(() => dimensionalReplySchema(plain), /Template "plain" is not a multi-dimension pairwise template/);
  });
});

describe('dimensional JSON schema', () => {
  const schema = dimensionalJsonSchema(hhh);

  it('closes every object with additionalProperties false for strict structured output', () => {
    const nodes = objectNodes(schema);
    assert.equal(nodes.length, 1 + 1 + 3 + 1 + 1 + 1); // root, dimensions, 3 dimensions, ranking, deflection, overall
    for (const [path, node] of nodes) assert.equal(node.additionalProperties, false, path);
  });

  it('requires every property of every object, as strict mode demands', () => {
    for (const [path, node] of objectNodes(schema)) {
      assert.deepEqual(node.required, Object.keys(node.properties as object), path);
    }
  });

  it('puts the reasoning first and the verdicts after it', () => {
    assert.deepEqual(schema.required, ['justification', 'dimensions', 'ranking', 'deflection', 'overall']);
    assert.deepEqual(Object.keys(schema.properties as object), schema.required);
  });

  it('requires exactly the declared dimensions, in priority order', () => {
    const dims = (schema.properties as Record<string, Record<string, unknown>>).dimensions!;
    assert.deepEqual(dims.required, ['Harmless', 'Honest', 'Helpful']);
  });

  it('offers the default four degrees in order and leaves ranking bounds out', () => {
    const props = schema.properties as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    assert.deepEqual(props.overall!.properties.degree!.enum, [...DEFAULT_DEGREES]);
    assert.equal(props.ranking!.properties.A!.type, 'integer');
    assert.equal('minimum' in props.ranking!.properties.A!, false);
    assert.equal('$schema' in schema, false);
  });
});

describe('dimensional output instruction', () => {
  const text = dimensionalOutputInstruction(hhh);

  it('lists the fields in reply order, with each dimension and its description', () => {
    const order = ['"justification"', '"dimensions"', '"Harmless": Avoids', '"Honest": Accurate', '"Helpful": Satisfies', '"ranking"', '"deflection"', '"overall"'];
    const positions = order.map((s) => text.indexOf(s));
    assert.ok(positions.every((p) => p >= 0), `missing one of ${order.join(', ')}`);
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
  });

  it('states all five consistency rules with the template’s scale', () => {
    for (const id of ['degree-winner', 'ranking-gap', 'priority-order', 'deflection-harmless', 'ranking-range']) {
      assert.match(text, new RegExp(`^- ${id}: `, 'm'));
    }
    assert.match(text, /integers from 1 to 7/);
    assert.match(text, /4 → "better" or "significantly better"/);
  });

  it('speaks the template’s own degree words', () => {
    const custom = dimensionalOutputInstruction({ ...hhh, degrees: ['tie', 'edge', 'clear', 'decisive'] });
    assert.match(custom, /one of "tie", "edge", "clear" or "decisive"/);
    assert.match(custom, /3 → "clear"/);
    assert.doesNotMatch(custom, /about the same/);
  });

  it('states only the winner part of ranking-gap when the template declares three degrees', () => {
    const three = dimensionalOutputInstruction({ ...hhh, degrees: ['same', 'better', 'much better'] });
    assert.match(three, /^- ranking-gap: the lower-ranked response never wins overall\.$/m);
    assert.doesNotMatch(three, /gap 0 →/);
  });
});
