// The one table of verdict formats. Keyed by a mapped type over VerdictFormat, so a name added to
// VERDICT_FORMAT_NAMES does not compile until it has an entry here, and every caller dispatches
// through this table: there is no "else it must be the last format" branch anywhere.
import type { VerdictFormat } from '../types';
import { JSON_FORMAT } from './json';
import { PROMETHEUS_FORMAT } from './prometheus';
import { REGEX_FORMAT } from './regex';
import type { VerdictFormatRules } from './rules';
import { TAGGED_FORMAT } from './tagged';

export const VERDICT_FORMATS: { readonly [F in VerdictFormat]: VerdictFormatRules } = {
  json: JSON_FORMAT,
  tagged: TAGGED_FORMAT,
  regex: REGEX_FORMAT,
  prometheus: PROMETHEUS_FORMAT,
};

export type { VerdictFormatRules, ReadContext, DescribeContext, VerdictFinding } from './rules';
