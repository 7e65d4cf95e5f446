export * from './types';
export { verdictReader, verdictTexts } from './dispatch';
export { verdictRule, verdictInstruction, verdictRepair, labelRule, sourceRule } from './describe';
export { compileVerdictPattern, matchVerdict, REGEX_READ_LIMIT } from './regex';
export { findTaggedNumber, findTaggedWinner, TAGGED_READ_LIMIT } from './tagged';
export { findPrometheusVerdict, PROMETHEUS_READ_LIMIT } from './prometheus';
export { VERDICT_FORMATS, type VerdictFormatRules } from './formats/registry';
