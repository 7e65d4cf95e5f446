// Text as a reader sees it, for telling whether one text quotes another: compatibility forms
// folded (fullwidth, mathematical letters), marks and invisible format characters dropped (a soft
// hyphen or a zero-width space splits a word for a machine, not for a reader), and letters of
// other scripts that look like Latin ones replaced by those (Cyrillic а, Greek ο). Both sides of a
// comparison go through it, so a held-out text cannot hide in another spelling of itself.

/** Look-alikes of Latin letters (after the map, case is folded by the caller). Unicode TR39's commonest pairs. */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [
    // Cyrillic capitals and small letters
    'АA', 'ВB', 'ЕE', 'ЅS', 'ІI', 'ЈJ', 'КK', 'МM', 'НH', 'ОO', 'РP', 'СC', 'ТT', 'УY', 'ХX', 'ԚQ', 'ԜW',
    'аa', 'еe', 'ѕs', 'іi', 'јj', 'кk', 'оo', 'рp', 'сc', 'уy', 'хx', 'ԁd', 'ԛq', 'ԝw', 'һh', 'ӏl', 'ѵv',
    // Greek capitals and small letters
    'ΑA', 'ΒB', 'ΕE', 'ΖZ', 'ΗH', 'ΙI', 'ΚK', 'ΜM', 'ΝN', 'ΟO', 'ΡP', 'ΤT', 'ΥY', 'ΧX',
    'αa', 'ιi', 'κk', 'νv', 'οo', 'ρp', 'υu', 'χx',
    // Armenian and Latin extensions
    'օo', 'սu', 'ıi', 'ɡg', 'ɑa', 'ʟl',
  ].map((pair) => [pair.slice(0, 1), pair.slice(1)]),
);

const MARKS_AND_FORMAT = /[\p{M}\p{Cf}]/gu;
const NON_LATIN_LOOKALIKE = /[\u0370-\u03ff\u0400-\u052f\u0530-\u058f\u0131\u0251\u0261\u029f]/g;

/** `text` folded for comparison: see the module comment. Case is left to the caller. */
export function readerSkeleton(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS_AND_FORMAT, '')
    .replace(NON_LATIN_LOOKALIKE, (c) => LOOKALIKES[c] ?? c)
    .normalize('NFC');
}
