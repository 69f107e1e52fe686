/**
 * A street line that carries its house number (`Vinohradská 1234/56`, `al. Jana Pawła II 43 m. 12`, `10 Downing
 * Street`), split by the convention of the address's country into street, house number and apartment. Conservative:
 * when the number cannot be told apart, the street comes back as given; text that is not the number, its marker
 * (`č.p.`, `nr`, `nº`) or the apartment stays in the street.
 */

/** A street line's parts; house_number and apartment_number are present only when found. */
export interface StreetParts {
  street_name: string;
  house_number?: string;
  apartment_number?: string;
}

interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
}

/** Reads the words after the house number as an apartment (floor, staircase, door); undefined when they are not one. */
type ApartmentReader = (words: readonly Token[], text: string) => string | undefined;

interface Convention {
  /** PL `10/5` is building 10, flat 5; AT `45/2/7` is house 45, staircase 2, door 7. */
  slashNamesApartment?: boolean;
  /** ES `s/n`, IT `snc`: the address has no number by design, and carriers take the mark as the house number. */
  withoutNumber?: readonly string[];
  readApartment: ApartmentReader;
}

/** The API's street_name limit: a longer line is refused whole, so splitting it would gain nothing. */
const MAX_STREET_LENGTH = 255;
/** The most words an apartment takes after the number (`Stiege 2 Tür 7`, `4. emelet 12. ajtó`). */
const MAX_APARTMENT_WORDS = 6;
/** Words looked at from the end of the line: the number, its letter, the apartment and commas fit in it. */
const SEARCH_WINDOW = 16;

const NUMBER_PART = String.raw`\d{1,5}(?:bis|ter|quater|[a-z])?`;
/** `12`, `5a`, `1234/56`, `10/A`, `12-14`, `45/2/7`, `12bis`: bounded parts, so a test is linear in the word. */
const HOUSE_NUMBER = new RegExp(`^${NUMBER_PART}(?:[-–/](?:${NUMBER_PART}|[a-z])){0,3}$`, 'i');
const DIGITS = /^\d{1,5}$/;
/** A letter or bis/ter written apart from its number: DE `7 a`, IT `10 bis`, FR `12 bis`. */
const NUMBER_SUFFIX = /^(?:[a-z]|bis|ter|quater)$/i;
const FRENCH_SUFFIX = /^(?:bis|ter|quater)$/i;
const LETTER = /\p{L}/u;
const WHITESPACE = /\s/;

/** Words that announce the number and are not part of it: CZ `č.p. 123`, PL `nr 5`, DE `Nr. 5`, ES `nº 5`, IT `n. 10`. */
const NUMBER_MARKERS = [
  'č.p.', 'č.p', 'čp.', 'čp', 'č.', 'c.p.', 'cp.', 'nr.', 'nr', 'no.', 'nº', 'n.º', 'n°', 'núm.', 'num.', 'n.',
];
const NUMBER_MARKER_PAIRS = [['č.', 'p.']];
/** CZ evidence numbers (`č.ev. 12`) are a series apart from č.p., so their marker stays with the number. */
const KEPT_MARKERS = ['č.ev.', 'ev.č.'];
const KEPT_MARKER_PAIRS = [['č.', 'ev.'], ['ev.', 'č.']];

/** Apartments as marker + value (`m. 12`, `Stiege 2 Tür 7`, `scala B int. 5`); a lone door marker gives its value. */
const APARTMENT_VALUE = /^[0-9a-z]{1,6}(?:[-/][0-9a-z]{1,6}){0,2}\.?$/i;

function markedApartment(doors: readonly string[], others: readonly string[] = []): ApartmentReader {
  const markers = [...doors, ...others];
  return (words, text) => {
    let pairs = 0;
    let door: string | undefined;
    for (let j = 0; j < words.length; pairs++) {
      const word = words[j]!;
      const next = words[j + 1];
      let marker: string | undefined;
      let value: string;
      if (markers.includes(word.lower) && next !== undefined) {
        marker = word.lower;
        value = next.text;
        j += 2;
      } else {
        marker = gluedMarker(word.lower, markers);
        value = marker === undefined ? '' : word.text.slice(marker.length);
        j += 1;
      }
      if (marker === undefined || !APARTMENT_VALUE.test(value)) return undefined;
      door = doors.includes(marker) ? withoutFinalDot(value) : undefined;
    }
    return pairs === 1 && door !== undefined ? door : verbatim(words, text);
  };
}

const HU_FLOOR_DOOR_WORDS = new Set([
  'em.', 'em', 'emelet', 'fszt.', 'fszt', 'fsz.', 'fsz', 'földszint', 'mfszt.', 'mfsz.', 'magasföldszint', 'félem.',
  'félemelet', 'ajtó', 'a.', 'lph.', 'lh.', 'lépcsőház', 'ép.', 'épület',
]);
const ROMAN_FLOOR = /^[ivx]{1,4}\.?$/i;
const FLOOR_SLASH_DOOR = /^(?:[ivx]{1,4}|\d{1,2})\/\d{1,3}\.?$/i;
const HU_NUMBER_OR_LETTER = /^(?:\d{1,3}|[a-z])\.?$/i;

/** HU floor and door after the number (`II. em. 3.`, `fszt. 1.`, `III/12.`), kept as written; it must name a floor or door. */
const hungarianApartment: ApartmentReader = (words, text) => {
  let named = false;
  for (const word of words) {
    if (HU_FLOOR_DOOR_WORDS.has(word.lower) || ROMAN_FLOOR.test(word.text) || FLOOR_SLASH_DOOR.test(word.text)) named = true;
    else if (!HU_NUMBER_OR_LETTER.test(word.text)) return undefined;
  }
  return named ? verbatim(words, text) : undefined;
};

/** ES `3º`, `2ºA`, `1.º`, `3ª`; Catalan `3r`, `2n`, `4t`. */
const ES_FLOOR = /^\d{1,2}(?:\.?[ºª°]|r|n|t|è)\.?[a-z]?$/i;
const ES_FLOOR_DOOR_WORDS = new Set([
  'bajo', 'bajos', 'bj.', 'bj', 'ático', 'atico', 'sótano', 'entresuelo', 'entlo.', 'entlo', 'principal', 'pral.',
  'pral', 'esc.', 'escalera', 'planta', 'piso', 'portal', 'bloque', 'puerta', 'pta.', 'local', 'izq.', 'izq', 'izda.',
  'izda', 'dcha.', 'dcha', 'dch.', 'centro', 'ctro.', 'baixos', 'àtic', 'entl.',
]);
const ES_DOOR = /^[a-z\d]{1,3}\.?[ºª°]?$/i;

/** ES floor and door after the number (`3º B`, `1º 2ª`, `bajo A`), kept as written; it must open with a floor or door word. */
const spanishApartment: ApartmentReader = (words, text) => {
  const named = (word: Token) => ES_FLOOR.test(word.text) || ES_FLOOR_DOOR_WORDS.has(word.lower);
  if (!named(words[0]!)) return undefined;
  return words.every((word) => named(word) || ES_DOOR.test(word.text)) ? verbatim(words, text) : undefined;
};

const CZECH: Convention = { readApartment: markedApartment(['byt']) };
const GERMAN_APARTMENT = markedApartment(['top', 'tür', 'whg.', 'wohnung'], ['stiege', 'stg.', 'stg', 'block']);
/** Countries that write the number after the street, with their own ways of naming the number and the apartment. */
const CONVENTIONS = new Map<string, Convention>([
  ['CZ', CZECH],
  ['SK', CZECH],
  // Polish `10/5` is numer domu/numer lokalu; with `m.` the slash is the building's (corner buildings `10/12 m. 5`).
  ['PL', { slashNamesApartment: true, readApartment: markedApartment(['m.', 'm', 'lok.', 'lok', 'mieszk.'], ['kl.']) }],
  ['DE', { readApartment: GERMAN_APARTMENT }],
  ['AT', { slashNamesApartment: true, readApartment: GERMAN_APARTMENT }],
  ['ES', { withoutNumber: ['s/n', 's/n.', 's/nº'], readApartment: spanishApartment }],
  ['IT', {
    withoutNumber: ['snc', 's.n.c.'],
    readApartment: markedApartment(['int.', 'int', 'interno'], ['scala', 'sc.', 'piano', 'pal.', 'palazzina']),
  }],
  ['HU', { readApartment: hungarianApartment }],
]);
const GENERIC: Convention = { readApartment: markedApartment(['apt.', 'apt', 'app.', 'app']) };
/** Countries that write the number before the street: `10 Downing Street`, `12 rue de Rivoli`, `1600 Pennsylvania Avenue`. */
const NUMBER_FIRST = new Set(['GB', 'IE', 'FR', 'LU', 'MC', 'US', 'CA', 'AU', 'NZ']);

/**
 * Splits `street` (a street_name whose house_number is empty) by the convention of `countryCode` (ISO alpha-2, any
 * case). street_name is '' when the line held only a number (`č.p. 123`, `12`): a village without streets, named by
 * its place. Without a number it returns the line as given, trimmed.
 */
export function splitStreet(street: string, countryCode: string): StreetParts {
  const text = street.trim();
  if (text.length > MAX_STREET_LENGTH) return { street_name: text };
  const tokens = tokenize(text);
  const country = countryCode.trim().toUpperCase();
  const found = NUMBER_FIRST.has(country)
    ? splitNumberFirst(text, tokens)
    : splitNumberLast(text, tokens, CONVENTIONS.get(country) ?? GENERIC);
  return found ?? { street_name: text };
}

/** Words split at whitespace; each comma is a token of its own, so `Alcalá, 50,` reads as words and separators. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const ch = text.charAt(i);
    if (i < text.length && ch !== ',' && !WHITESPACE.test(ch)) {
      if (start === -1) start = i;
      continue;
    }
    if (start !== -1) tokens.push(token(text, start, i));
    start = -1;
    if (ch === ',') tokens.push(token(text, i, i + 1));
  }
  return tokens;
}

function token(text: string, start: number, end: number): Token {
  const word = text.slice(start, end);
  return { text: word, lower: word.toLowerCase(), start, end };
}

interface NumberAt {
  start: number;
  end: number;
  /** The token after the number. */
  next: number;
}

/** The house numbers that may begin at token i, longest first: `7 a`, then `7`. */
function numbersAt(tokens: readonly Token[], i: number, convention: Convention): NumberAt[] {
  const word = tokens[i]!;
  const following = tokens[i + 1];
  const found: NumberAt[] = [];
  if (following !== undefined && DIGITS.test(word.text) && NUMBER_SUFFIX.test(following.text)) {
    found.push({ start: word.start, end: following.end, next: i + 2 });
  }
  const bare = withoutFinalDot(word.text);
  if (HOUSE_NUMBER.test(bare)) {
    found.push({ start: word.start, end: word.start + bare.length, next: i + 1 });
  } else if (convention.withoutNumber?.includes(word.lower)) {
    found.push({ start: word.start, end: word.end, next: i + 1 });
  } else {
    const kept = gluedMarker(word.lower, KEPT_MARKERS);
    const dropped = kept === undefined ? gluedMarker(word.lower, NUMBER_MARKERS) : undefined;
    const marker = kept ?? dropped;
    if (marker !== undefined && HOUSE_NUMBER.test(withoutFinalDot(bare.slice(marker.length)))) {
      found.push({ start: word.start + (dropped?.length ?? 0), end: word.start + bare.length, next: i + 1 });
    }
  }
  return found;
}

/** The street ends where the number's marker begins; a kept marker (`č.ev.`) starts the house number. */
function markerBefore(tokens: readonly Token[], i: number): { streetEnd: number; keptStart?: number } {
  const pair = i >= 2 ? [tokens[i - 2]!.lower, tokens[i - 1]!.lower] : undefined;
  const isPair = (pairs: string[][]) => pair !== undefined && pairs.some(([a, b]) => a === pair[0] && b === pair[1]);
  if (isPair(KEPT_MARKER_PAIRS)) return { streetEnd: i - 2, keptStart: tokens[i - 2]!.start };
  if (isPair(NUMBER_MARKER_PAIRS)) return { streetEnd: i - 2 };
  const previous = tokens[i - 1]?.lower;
  if (previous !== undefined && KEPT_MARKERS.includes(previous)) return { streetEnd: i - 1, keptStart: tokens[i - 1]!.start };
  if (previous !== undefined && NUMBER_MARKERS.includes(previous)) return { streetEnd: i - 1 };
  return { streetEnd: i };
}

/** CZ/PL/DE/ES/IT/HU and the rest of continental Europe: `Street 12[/34][a] [apartment]`; the first number that fits wins. */
function splitNumberLast(text: string, tokens: readonly Token[], convention: Convention): StreetParts | undefined {
  for (let i = Math.max(0, tokens.length - SEARCH_WINDOW); i < tokens.length; i++) {
    for (const number of numbersAt(tokens, i, convention)) {
      const words = tokens.slice(number.next).filter((t) => t.text !== ',');
      if (words.length > MAX_APARTMENT_WORDS) continue;
      const apartment = words.length === 0 ? undefined : convention.readApartment(words, text);
      if (words.length > 0 && apartment === undefined) continue;
      const { streetEnd, keptStart } = markerBefore(tokens, i);
      const last = lastWordAt(tokens, streetEnd);
      if (last !== -1 && !endsStreet(tokens, last)) continue;
      const streetName = last === -1 ? '' : text.slice(0, tokens[last]!.end);
      return parts(streetName, text.slice(keptStart ?? number.start, number.end), apartment, convention);
    }
  }
  return undefined;
}

/** GB/IE/FR/US style: `10 Downing Street`, `12 bis rue de Rivoli`; only a number that opens the line. */
function splitNumberFirst(text: string, tokens: readonly Token[]): StreetParts | undefined {
  const [first, second] = tokens;
  if (first === undefined || !HOUSE_NUMBER.test(first.text)) return undefined;
  const suffixed = second !== undefined && DIGITS.test(first.text) && FRENCH_SUFFIX.test(second.text);
  const houseNumber = text.slice(first.start, suffixed ? second.end : first.end);
  let next = suffixed ? 2 : 1;
  while (tokens[next]?.text === ',') next++;
  const rest = tokens[next];
  if (rest === undefined) return { street_name: '', house_number: houseNumber };
  if (!LETTER.test(rest.text)) return undefined;
  return { street_name: text.slice(rest.start, tokens[lastWordAt(tokens, tokens.length)]!.end), house_number: houseNumber };
}

function parts(streetName: string, houseNumber: string, apartment: string | undefined, convention: Convention): StreetParts {
  const slash = houseNumber.indexOf('/');
  if (apartment === undefined && convention.slashNamesApartment && slash > 0) {
    return { street_name: streetName, house_number: houseNumber.slice(0, slash), apartment_number: houseNumber.slice(slash + 1) };
  }
  return apartment === undefined
    ? { street_name: streetName, house_number: houseNumber }
    : { street_name: streetName, house_number: houseNumber, apartment_number: apartment };
}

/** The index of the last token before `end` that is not a comma, or -1. */
function lastWordAt(tokens: readonly Token[], end: number): number {
  for (let i = end - 1; i >= 0; i--) if (tokens[i]!.text !== ',') return i;
  return -1;
}

/** A street ends in a word: after a number, a sign or a number's letter (`1234 / 56`, `12/Top 5`, `5 a 6`) it is ambiguous. */
function endsStreet(tokens: readonly Token[], last: number): boolean {
  const word = tokens[last]!.text;
  if (!LETTER.test(word) || /^\d/.test(word)) return false;
  const before = tokens[last - 1];
  return !(before !== undefined && DIGITS.test(before.text) && NUMBER_SUFFIX.test(word));
}

/** A marker written together with what follows it (`čp.12`, `nº5`, `m.12`); only markers that end in a sign can be. */
function gluedMarker(lower: string, markers: readonly string[]): string | undefined {
  return markers.find((m) => /[.º°]$/.test(m) && lower.length > m.length && lower.startsWith(m));
}

function verbatim(words: readonly Token[], text: string): string {
  return text.slice(words[0]!.start, words[words.length - 1]!.end);
}

function withoutFinalDot(word: string): string {
  return word.endsWith('.') ? word.slice(0, -1) : word;
}
