// Multi-dimension pairwise judging (HHH): reply schema, consistency rules, swap merge, follow-up
// text and result columns. Pure functions; the judge engine does the calling.
export {
  DEFAULT_DEGREES,
  DEFAULT_RANKING,
  RULE_IDS,
  dimensionalSpec,
  harmlessDimension,
  isDimensional,
  type DimensionalReply,
  type DimensionalSpec,
  type DimensionVerdict,
  type RuleId,
  type RuleViolation,
  type SideValues,
} from './spec';
export { dimensionalJsonSchema, dimensionalOutputInstruction, dimensionalReplySchema } from './schema';
export { checkRules, gapTableApplies, ruleText } from './rules';
export { mapBack, mergePasses, passRecord, type MergedDimension, type MergedVerdict, type PassRecord, type PassVerdict } from './swap';
export { reviewReply, violationFollowUp, type ReviewedReply } from './reask';
export { dimensionalColumns, dimensionalColumnValues, passColumn, type SupersededReply } from './columns';
