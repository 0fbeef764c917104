import anyAscii from 'any-ascii';
import { doubleMetaphone } from 'double-metaphone';

/**
 * Name normalisation for screening: any script to comparable Latin tokens. Both sides (the list's
 * names at load, the screened person's at query time) go through the same steps, so whatever a step
 * loses it loses on both sides.
 */

/** One comparable part of a name. */
export interface NameToken {
  /** Lower-case ASCII, no punctuation; Arabic `abd al X` forms folded to `abdX`. */
  text: string;
  /** The same before the `abd` folding (abdullahi): a typo in the query (asdullahi) is measured against this. */
  raw: string;
  /** Double Metaphone codes (primary, alternate), deduplicated. */
  phonetic: string[];
  /** Consonant skeleton (vowels, y and w dropped, doubles collapsed): how an unvowelled script is compared. */
  skeleton: string;
  /** The token came from an abjad script (Arabic, Persian, Hebrew...) whose vowels transliteration cannot restore. */
  abjad: boolean;
  /** A family name (a list's "LAST," part or a person's last_name). */
  family: boolean;
}

/** Titles and honorifics that are not part of who a person is; dropped from both sides. */
const HONORIFICS = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'dame', 'lord', 'lady', 'jr', 'sr', 'jnr', 'snr',
  'sheikh', 'shaykh', 'sheik', 'shaikh', 'haji', 'hajji', 'alhaji', 'maulavi', 'mawlawi', 'maulvi', 'mawlavi', 'mullah',
  'mulla', 'mullah', 'mufti', 'qari', 'hafiz', 'imam', 'general', 'gen', 'colonel', 'col',
  'major', 'maj', 'captain', 'capt', 'lieutenant', 'lt', 'brigadier', 'admiral', 'commander', 'engineer', 'eng',
  'senator', 'president', 'minister', 'his', 'her', 'excellency', 'hon', 'rev', 'father', 'pastor',
]);

/** Particles that join name parts (Arabic article, patronymic markers, European nobiliary particles): too common to weigh. */
const PARTICLES = new Set([
  'al', 'el', 'ul', 'ad', 'ar', 'as', 'ash', 'at', 'az', 'an', 'bin', 'ibn', 'ben', 'bint', 'binti', 'bte', 'bt', 'ould',
  'de', 'da', 'del', 'della', 'der', 'den', 'di', 'do', 'dos', 'das', 'du', 'van', 'von', 'la', 'le', 'les', 'y', 'e', 'und',
]);

/** Arabic `abd`-compounds written apart or joined (Abd al-Aziz, Abdul Aziz, Abdelaziz) fold to `abd` + the name. */
const ABD = /^abd(?:u|e|a|o|i|ou)(?:l|r|s|n|z|d|sh)?(?=[a-z]{3,}$)/;
const ABD_ALONE = new Set(['bd', 'abd', 'abdu', 'abdul', 'abdel', 'abdal', 'abdol', 'abdoul', 'abdur', 'abdus', 'abdou']);

/** Unicode ranges of scripts written without vowels (Arabic and its extensions, Hebrew, Syriac, Thaana). */
const ABJAD = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
/** Han, Hiragana, Katakana and Hangul: one syllable a character, transliterated apart. */
const SYLLABIC = /([\u1100-\u11FF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF])/g;

/** The longest name worth comparing; a longer string is cut here (a bound on the work one query may cost). */
export const MAX_NAME_CHARS = 300;
const MAX_TOKENS = 12;

/** Folds text to lower-case ASCII words: transliteration, accents, apostrophes and punctuation. */
export function foldText(text: string): string {
  const cut = text.slice(0, MAX_NAME_CHARS);
  // any-ascii only where there is something beyond ASCII: most names on the lists are already Latin.
  const ascii = /^[\x00-\x7f]*$/.test(cut) ? cut : anyAscii(cut.replace(SYLLABIC, ' $1 '));
  return ascii
    .toLowerCase()
    .replace(/[`'\u2018\u2019\u02bb\u02bc\u02bf\u02be"]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Consonant skeleton used to compare unvowelled transliterations with vowelled ones. */
export function skeletonOf(text: string, abjad = false): string {
  let t = text;
  // The Arabic article transliterates as a leading "l" glued to the word (الكبير → lkbyr).
  if (abjad && t.length > 3 && t.startsWith('l')) t = t.slice(1);
  return t.replace(/[aeiouyw0-9]/g, '').replace(/(.)\1+/g, '$1');
}

/**
 * Splits a name into comparable tokens: honorifics and particles dropped (kept if nothing else is
 * left), `abd` compounds joined, at most a dozen tokens. `family` marks every token of the name as a
 * family name (used for a list's "LAST," part and a person's last_name).
 */
export function tokenise(name: string, family = false): NameToken[] {
  const abjad = ABJAD.test(name);
  // A hyphen joins one name (Nur-al-Din, Brask-Tollevik, Il-Gyu): written apart elsewhere, it is matched part by part.
  const words = foldText(name.replace(/(\p{L})[-\u2010\u2011](?=\p{L})/gu, '$1')).split(' ').filter((w) => w.length > 0);
  const joined: { text: string; raw: string }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (ABD_ALONE.has(w) && i + 1 < words.length) {
      let j = i + 1;
      if (PARTICLES.has(words[j] as string) && j + 1 < words.length) j++;
      // Abd Allah folds as Abdullah does (abd + lah); any other name is kept whole (Abd al-Aziz → abdaziz).
      const next = (words[j] as string).replace(/^(?:al|el|ul)(?=[a-z]{3,})(?!lah$)/, '');
      joined.push({ text: `abd${next === 'allah' ? 'lah' : next}`, raw: words.slice(i, j + 1).join('') });
      i = j;
    } else joined.push({ text: w.replace(ABD, 'abd'), raw: w });
  }
  const meaningful = joined.filter((w) => !HONORIFICS.has(w.text) && !PARTICLES.has(w.text));
  const kept = (meaningful.length > 0 ? meaningful : joined).slice(0, MAX_TOKENS);
  return kept.map((w) => makeToken(w.text, w.raw, abjad, family));
}

function makeToken(text: string, raw: string, abjad: boolean, family: boolean): NameToken {
  return { text, raw, phonetic: phoneticCodes(text), skeleton: skeletonOf(text, abjad), abjad, family };
}

/** Double Metaphone codes, remembered: the lists repeat the same name parts thousands of times. */
const phoneticMemo = new Map<string, string[]>();

function phoneticCodes(text: string): string[] {
  const known = phoneticMemo.get(text);
  if (known) return known;
  const [primary, alternate] = doubleMetaphone(text);
  const codes = primary === alternate || !alternate ? (primary ? [primary] : []) : [primary, alternate];
  if (phoneticMemo.size < 200_000) phoneticMemo.set(text, codes);
  return codes;
}

/** True when the name is written (at least partly) in an abjad script. */
export function isAbjad(name: string): boolean {
  return ABJAD.test(name);
}
