// Calibration of a judge against human labels: `judge-studio calibrate` and the editor use this.
export * from './types';
export { calibrate, type CalibrateOptions } from './calibrate';
export { formatGroups, formatReport } from './format';
export { checkMinimums, parseMinimums, GATE_KEYS, type Minimum, type ThresholdCheck } from './thresholds';
