// The pairwise verdict labels, in a module of their own so schemas can share them without cycles.
export const WINNERS = ['A', 'B', 'TIE'] as const;
export type Winner = (typeof WINNERS)[number];
