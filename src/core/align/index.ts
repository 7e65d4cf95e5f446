// Align a judge with its human labels (issue #24): candidates drawn from the train disagreements,
// measured on held-out rows with significance. The CLI and the editor both call runAlign.
export * from './types';
export { loadLabelled, type LoadedRows, type LoadOptions } from './rows';
export { splitRows, MIN_LABELLED, MIN_PER_CLASS_PER_PART } from './split';
export { HeldOutGuard, QUOTE_WORDS, QUOTE_MIN_CHARS, words } from './quotes';
export { runAlign, AlignInputError, defaultOutDir, candidateFile, resultsFile, REPORT_FILE, ID, type AlignOptions, type AlignProgress, type AlignRun } from './run';
export { formatAlignReport } from './format';
