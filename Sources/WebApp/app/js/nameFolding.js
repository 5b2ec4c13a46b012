// How typed names are compared with the catalogue's, exactly as StationNameFolding.swift:
// NFKC (full- and half-width forms: ＪＲ = JR, ｹ = ケ), then lower case, surrounding white space
// trimmed (one catalogue name ends in a space), and ヶ, ヵ read as ケ (the catalogue writes 駒ヶ根
// but 牛ケ原). For a STATION name a trailing 駅 is optional (a search keeps it); for readings
// katakana U+30A1…U+30F6 read as hiragana.

// CharacterSet.whitespacesAndNewlines: Unicode Zs, tab, U+000A…U+000D, U+0085, U+2028, U+2029.
const EDGE_SPACE = /^[\t\n\v\f\r\u0085\u2028\u2029\p{Zs}]+|[\t\n\v\f\r\u0085\u2028\u2029\p{Zs}]+$/gu;

/**
 * StationNameFolding.fold.
 * @param {string} text
 */
export function fold(text) {
  return text.normalize('NFKC').toLowerCase().replace(EDGE_SPACE, '').replace(/[ヶヵ]/g, 'ケ');
}

/**
 * A station name folded for matching, without its trailing 駅 (a name that is only 駅 keeps it).
 * @param {string} name
 */
export function foldStationName(name) {
  const folded = fold(name);
  return folded.endsWith('駅') && [...folded].length > 1 ? folded.slice(0, -1) : folded;
}

/**
 * A reading folded for matching: katakana as hiragana, so コマガネ and ｺﾏｶﾞﾈ find こまがね.
 * @param {string} text
 */
export function foldReading(text) {
  let out = '';
  for (const ch of fold(text)) {
    const c = /** @type {number} */ (ch.codePointAt(0));
    out += c >= 0x30a1 && c <= 0x30f6 ? String.fromCodePoint(c - 0x60) : ch;
  }
  return out;
}

/**
 * A folded text that is a number (an s_id, a prefecture code), or null.
 * @param {string} folded
 */
export function number(folded) {
  return /^[0-9]+$/.test(folded) ? Number(folded) : null;
}
