export * from './types';
export { parseTemplate } from './parse';
export { validateTemplate, hasErrors } from './validate';
export { renderTemplate, type RenderOptions, type RenderOutcome, type RenderedPrompt, type PlaceholderValue } from './render';
export { knownFields, usedFields, pairStyle, pairFields, STANDARD_FIELDS, FIELD_DOCS } from './fields';
export { SECTION_TITLES, SECTION_ORDER, sectionKey } from './sections';
