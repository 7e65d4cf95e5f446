// Results-file contracts shared by the run pipeline, calibrate, compare, review and the editor.
export * from './errorKinds';
export * from './keys';
export * from './latest';
export * from './verdict';
