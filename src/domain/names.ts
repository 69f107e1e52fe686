import { isText } from './values.js';

/** A person's name as the API's contact holds it. */
export interface PersonName {
  first_name: string;
  last_name: string;
}

/**
 * Titles and forms of address written before a name (Czech, Slovak, Polish, German, Austrian, Hungarian, Spanish,
 * Italian, English), in lower case without the final dot; those with a dot inside (`Dipl.-Ing.`, `Sig.ra`) are known
 * by their shape.
 */
const TITLES_BEFORE = new Set([
  'ing', 'mgr', 'mga', 'bc', 'bca', 'dr', 'mudr', 'mvdr', 'mddr', 'judr', 'phdr', 'rndr', 'paeddr', 'pharmdr', 'thdr',
  'thlic', 'icdr', 'rsdr', 'prof', 'doc', 'mag', 'inż', 'lek', 'herr', 'frau', 'pan', 'pani', 'paní', 'pán', 'sr', 'sra',
  'srta', 'don', 'doña', 'dña', 'sig', 'dott', 'avv', 'arch', 'geom', 'rag', 'mr', 'mrs', 'ms', 'miss', 'mx', 'mme',
  'mlle', 'ifj', 'özv',
]);

/**
 * Degrees and generations written after a name (`Jan Novák, Ph.D.`, `Jan Novák ml.`), as spelt without the final dot:
 * compared with their case, since `Ma`, `Ba` and `Mba` are surnames and `MA`, `BA` and `MBA` degrees; those with a dot
 * inside (`Ph.D.`, `LL.M.`) are known by their shape.
 */
const TITLES_AFTER = new Set([
  'PhD', 'ThD', 'CSc', 'DrSc', 'DiS', 'ArtD', 'MBA', 'MPA', 'DBA', 'MSc', 'BSc', 'MA', 'BA', 'LLM', 'MPH', 'EMBA', 'ml',
  'st', 'Jr', 'jr', 'Sr', 'II', 'III', 'IV',
]);
const TITLES_AFTER_IN_CAPITALS = new Set([...TITLES_AFTER].map((title) => title.toUpperCase()));

/** An abbreviation such as `Th.D.`, `Dipl.-Ing.` or `med.`: never a given name or a surname (an initial such as `J.` is). */
const isAbbreviation = (word: string) => /\.[^.]/.test(word) || /^\p{Ll}{2,5}\.$/u.test(word);
const isTitleBefore = (word: string) => TITLES_BEFORE.has(word.toLowerCase().replace(/\.$/, '')) || isAbbreviation(word);
const isTitleAfter = (word: string, shouting: boolean) => {
  const title = word.replace(/\.$/, '');
  return TITLES_AFTER.has(title) || (shouting && TITLES_AFTER_IN_CAPITALS.has(title)) || isAbbreviation(word);
};
/** After a comma an acronym in capitals is a degree too (`FCCA`), unless the whole name is written in capitals. */
const isTitleAfterComma = (word: string, shouting: boolean) => isTitleAfter(word, shouting) || (!shouting && /^\p{Lu}{2,5}$/u.test(word));

const wordsOf = (text: string) => text.split(/\s+/).filter((word) => word !== '');

/**
 * Splits a full name into first and last name: the last word is the last name and everything else stays with the first
 * name, in the order written, titles included (`Ing. Jan Novák` → `Ing. Jan` + `Novák`; `Jan Novák, Ph.D.` and
 * `Jan Novák Ph.D.` → `Jan Ph.D.` + `Novák`; `Frau Müller` → `Frau` + `Müller`, which reads right on a label).
 * Double surnames are not guessed (`María García López` → `María García` + `López`; `van der Berg` likewise) except
 * where a comma marks the surname first: `Novák, Jan` and `García López, María` → `Jan` + `Novák`, `María` + `García López`.
 * One word is a last name with an empty first name (`Novák` → `` + `Novák`): a name the API then refuses without a
 * company, as it should, rather than the same word twice. Titles alone (`Frau Dr.`) give the titles as first name and
 * an empty last name. Whitespace of any kind is collapsed.
 */
export function splitFullName(full: string): PersonName {
  const parts = full.split(',').map((part) => wordsOf(part)).filter((words) => words.length > 0);
  // a name in capitals (`JAN NOVÁK, PHD`) has its degrees in capitals too, and its given names look like acronyms
  const shouting = full === full.toUpperCase();
  let named = parts.length;
  while (named > 1 && parts[named - 1]!.every((word) => isTitleAfterComma(word, shouting))) named--;
  const degrees = parts.slice(named).flat();
  if (named === 2) {
    const [surnameWords, givenWords] = parts as [string[], string[]];
    const titles = surnameWords.slice(0, leadingTitles(surnameWords));
    const surname = surnameWords.slice(titles.length);
    return { first_name: [...titles, ...givenWords, ...degrees].join(' '), last_name: surname.join(' ') };
  }
  return lastWordIsSurname(parts.slice(0, named).flat(), degrees, shouting);
}

function leadingTitles(words: string[]): number {
  let count = 0;
  while (count < words.length - 1 && isTitleBefore(words[count]!)) count++;
  return count;
}

function lastWordIsSurname(words: string[], degrees: string[], shouting: boolean): PersonName {
  let surnameAt = words.length - 1;
  while (surnameAt >= 0 && isTitleAfter(words[surnameAt]!, shouting)) surnameAt--;
  if (surnameAt < 0 || words.slice(0, surnameAt + 1).every(isTitleBefore)) return { first_name: [...words, ...degrees].join(' '), last_name: '' };
  const first = [...words.slice(0, surnameAt), ...words.slice(surnameAt + 1), ...degrees];
  return { first_name: first.join(' '), last_name: words[surnameAt]! };
}

/** The name fields of a contact as a request or an imported row gives them, unchecked. */
export interface ContactNameFields {
  company_name?: unknown;
  first_name?: unknown;
  last_name?: unknown;
}

const sameText = (a: string, b: string) => wordsOf(a).join(' ').toLowerCase() === wordsOf(b).join(' ').toLowerCase();

/**
 * The first and last name to fill in from a full-name value (`name` of the API's contact, `recipient_contact_name` of
 * an import), or undefined when the contact stays as it is: no full name; a first or last name already given (they win
 * over the full name); or a full name that only repeats the company name (a business, no person to name).
 */
export function namesFromFullName(contact: ContactNameFields, fullName: unknown): PersonName | undefined {
  if (!isText(fullName) || isText(contact.first_name) || isText(contact.last_name)) return undefined;
  if (typeof contact.company_name === 'string' && sameText(contact.company_name, fullName)) return undefined;
  return splitFullName(fullName);
}
