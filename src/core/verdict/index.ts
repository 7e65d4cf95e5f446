export * from './types';
export { verdictReader, type Scale } from './read';
export { verdictRule, verdictInstruction, verdictRepair } from './describe';
export { compileVerdictPattern, matchVerdict, REGEX_READ_LIMIT } from './regex';
export { findTaggedNumber, findTaggedWinner, TAGGED_READ_LIMIT } from './tagged';
