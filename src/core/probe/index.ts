// Bias probes: `judge-studio probe` and the *Probe Judge* command use this.
export * from './perturb';
export { analyseProbes, formatProbeReport, type ProbeReport, type ProbeFigures, type MovedRow, type AnalyseOptions } from './analyse';
export { probeDataset, PROBE_FILES } from './dataset';
export { runProbes, DEFAULT_THRESHOLD, type ProbeRunOptions, type ProbeRun } from './run';
