export { generateSection, type GenerateDeps, type GenerateOutcome, type GenerateErrorCode } from './generate';
export { generateInput, STRICTNESS, type GenerateKind, type GenerateOptions, type Strictness } from './prompt';
export { applyGenerated, rubricMarkdown, stepsMarkdown, withProvenance, type Provenance } from './apply';
export { askJson, type AskDeps, type AskSpec, type AskOutcome } from './ask';
