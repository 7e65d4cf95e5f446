// Human review: the labels file, one human label per row, agreement between annotators and with
// the judge, the review queue, and the joins into calibrate and export.
export * from './types';
export * from './file';
export * from './majority';
export * from './agreement';
export * from './live';
export * from './random';
export * from './queue';
export * from './join';
export * from './example';
export * from './templates';
export * from './export';
