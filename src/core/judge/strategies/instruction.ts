// The one builder of the generated "# Output format" instruction: every reply kind lists its
// fields from its JSON schema, in order, with their descriptions, and ends with an example shape.
// Kept apart from the schemas so every kind imports it without importing the others.

export type SchemaProperties = Record<string, { description?: string; properties?: Record<string, { description?: string }> }>;

/** `- "key": description` per property; `nested` lists the sub-properties of the named ones too. */
export function fieldLines(props: SchemaProperties, nested: readonly string[] = []): string[] {
  return Object.entries(props).flatMap(([key, p]) => {
    const line = `- "${key}": ${p.description ?? ''}`.trimEnd();
    if (!nested.includes(key)) return [line];
    return [line, ...Object.entries(p.properties ?? {}).map(([name, d]) => `  - "${name}": ${d.description ?? ''}`.trimEnd())];
  });
}

/** The instruction: heading, the fields in order, any rules, then the example shape. */
export function outputInstructionText(fields: readonly string[], example: string, rules: readonly string[] = []): string {
  return [
    '# Output format',
    '',
    'Reply with a single JSON object and nothing else, with these fields in this order:',
    ...fields,
    '',
    ...(rules.length > 0 ? [...rules, ''] : []),
    `Example shape: ${example}`,
  ].join('\n');
}
