// Comparing two runs of a judge: `judge-studio compare` and the compare view use this.
export * from './types';
export { compareRuns, figuresOf, type CompareOptions, type CompareOutcome } from './compare';
export { pairResults, inputFields, inputsOf, type PairedRow, type PairOutcome } from './pair';
export { compareJson, significance, verdictLine, formatCompare, figureTitle, isFigureName, formatP, ALPHA } from './format';
export { deltaInterval, indexPairs, mcnemarOnPairs, figureFromMatrix, type LabelledPairs } from './figures';
export * from './stats';
export { snapshotTemplate, snapshotPath, SNAPSHOT_DIR } from './snapshots';
