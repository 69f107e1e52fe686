import { describe, expect, it } from 'vitest';
import { splitStreet, type StreetParts } from '../../src/domain/street.js';

type Row = [street: string, country: string, expected: StreetParts];
const parts = (street_name: string, house_number?: string, apartment_number?: string): StreetParts => ({
  street_name,
  ...(house_number === undefined ? {} : { house_number }),
  ...(apartment_number === undefined ? {} : { apartment_number }),
});

const CZECH: Row[] = [
  ['Vinohradská 1234/56', 'CZ', parts('Vinohradská', '1234/56')], // Praha: číslo popisné/orientační is one house number
  ['Dlouhá 5a', 'CZ', parts('Dlouhá', '5a')], // Praha
  ['náměstí Míru 820/9', 'CZ', parts('náměstí Míru', '820/9')], // Praha
  ['Masarykova 427/31', 'CZ', parts('Masarykova', '427/31')], // Brno
  ['28. října 117', 'CZ', parts('28. října', '117')], // Ostrava
  ['Horní náměstí 583', 'CZ', parts('Horní náměstí', '583')], // Olomouc
  ['U Průhonu 1589/13a', 'CZ', parts('U Průhonu', '1589/13a')], // Praha
  ['Lhota 15', 'CZ', parts('Lhota', '15')], // a village without streets: its name and the land-registry number
  ['Lhota č.p. 123', 'CZ', parts('Lhota', '123')],
  ['Lhota, čp. 12', 'CZ', parts('Lhota', '12')],
  ['Dolní Lhota č. p. 45', 'CZ', parts('Dolní Lhota', '45')],
  ['Nová Ves čp.7', 'CZ', parts('Nová Ves', '7')],
  ['čp. 12', 'CZ', parts('', '12')],
  ['Nová Ves č.ev. 12', 'CZ', parts('Nová Ves', 'č.ev. 12')], // evidence numbers are their own series
  ['Vinohradská 1234/56, byt 12', 'CZ', parts('Vinohradská', '1234/56', '12')],
  ['  Americká   42  ', 'cz', parts('Americká', '42')], // Plzeň, as an ERP pads it
];

const SLOVAK: Row[] = [
  ['Obchodná 12', 'SK', parts('Obchodná', '12')], // Bratislava
  ['Námestie SNP 14', 'SK', parts('Námestie SNP', '14')], // Bratislava
  ['Štúrova 2589/27', 'SK', parts('Štúrova', '2589/27')], // Bratislava
  ['Hlavná 1/A', 'SK', parts('Hlavná', '1/A')], // Košice
  ['Mlynské nivy 5', 'SK', parts('Mlynské nivy', '5')], // Bratislava
  ['Hviezdoslavovo námestie 20', 'SK', parts('Hviezdoslavovo námestie', '20')], // Bratislava
  ['Zemplínska Teplica 231', 'SK', parts('Zemplínska Teplica', '231')], // a village and its number
  ['Horná Lehota č. 45', 'SK', parts('Horná Lehota', '45')],
];

const POLISH: Row[] = [
  ['ul. Marszałkowska 10/5', 'PL', parts('ul. Marszałkowska', '10', '5')], // Warszawa: building 10, flat 5
  ['al. Jana Pawła II 43 m. 12', 'PL', parts('al. Jana Pawła II', '43', '12')], // Warszawa
  ['os. Tysiąclecia 12 lok. 3', 'PL', parts('os. Tysiąclecia', '12', '3')], // Kraków
  ['ul. 3 Maja 5', 'PL', parts('ul. 3 Maja', '5')], // Katowice
  ['ul. Piotrkowska 104', 'PL', parts('ul. Piotrkowska', '104')], // Łódź
  ['ul. Floriańska 15/3', 'PL', parts('ul. Floriańska', '15', '3')], // Kraków
  ['ul. Długa 45A', 'PL', parts('ul. Długa', '45A')], // Gdańsk
  ['ul. Świętojańska 12A/4', 'PL', parts('ul. Świętojańska', '12A', '4')], // Gdynia
  ['Nowy Świat 10/12 m. 5', 'PL', parts('Nowy Świat', '10/12', '5')], // Warszawa: a corner building's number, flat 5
  ['ul. Marszałkowska 10 m 5', 'PL', parts('ul. Marszałkowska', '10', '5')],
  ['ul. Grunwaldzka nr 82', 'PL', parts('ul. Grunwaldzka', '82')], // Gdańsk
  ['ul. Krakowskie Przedmieście 5', 'PL', parts('ul. Krakowskie Przedmieście', '5')], // Warszawa
];

const GERMAN: Row[] = [
  ['Mönckebergstraße 7a', 'DE', parts('Mönckebergstraße', '7a')], // Hamburg
  ['Hauptstr. 12-14', 'DE', parts('Hauptstr.', '12-14')], // Heidelberg
  ['Straße des 17. Juni 135', 'DE', parts('Straße des 17. Juni', '135')], // Berlin
  ['Unter den Linden 77', 'DE', parts('Unter den Linden', '77')], // Berlin
  ['Karl-Marx-Allee 34', 'DE', parts('Karl-Marx-Allee', '34')], // Berlin
  ['Königsallee 60', 'DE', parts('Königsallee', '60')], // Düsseldorf
  ['Hauptstraße 7 a', 'DE', parts('Hauptstraße', '7 a')], // Heidelberg
  ['Schillerstraße 12/1', 'DE', parts('Schillerstraße', '12/1')], // Stuttgart: a divided plot's number stays whole
  ['Maximilianstraße Nr. 17', 'DE', parts('Maximilianstraße', '17')], // München
  ['Am Markt 1,', 'DE', parts('Am Markt', '1')], // Bremen
];

const AUSTRIAN: Row[] = [
  ['Mariahilfer Straße 45/2/7', 'AT', parts('Mariahilfer Straße', '45', '2/7')], // Wien: Stiege 2, Tür 7
  ['Mariahilfer Straße 45/7', 'AT', parts('Mariahilfer Straße', '45', '7')], // Wien
  ['Kärntner Straße 12', 'AT', parts('Kärntner Straße', '12')], // Wien
  ['Getreidegasse 9', 'AT', parts('Getreidegasse', '9')], // Salzburg
  ['Herrengasse 16', 'AT', parts('Herrengasse', '16')], // Graz
  ['Landstraße 31 Top 5', 'AT', parts('Landstraße', '31', '5')], // Linz
  ['Maria-Theresien-Straße 18', 'AT', parts('Maria-Theresien-Straße', '18')], // Innsbruck
  ['Favoritenstraße 22 Stiege 2 Tür 7', 'AT', parts('Favoritenstraße', '22', 'Stiege 2 Tür 7')], // Wien
];

const SPANISH: Row[] = [
  ['Calle de Alcalá, 50, 3º B', 'ES', parts('Calle de Alcalá', '50', '3º B')], // Madrid
  ['C/ Mayor 5, 2ºA', 'ES', parts('C/ Mayor', '5', '2ºA')], // Madrid
  ['Avda. de la Constitución 12', 'ES', parts('Avda. de la Constitución', '12')], // Sevilla
  ['Gran Vía 28', 'ES', parts('Gran Vía', '28')], // Madrid
  ['Carrer de Mallorca 401, 3r 2a', 'ES', parts('Carrer de Mallorca', '401', '3r 2a')], // Barcelona
  ['Passeig de Gràcia 43, 1º 2ª', 'ES', parts('Passeig de Gràcia', '43', '1º 2ª')], // Barcelona
  ['Plaza Mayor, s/n', 'ES', parts('Plaza Mayor', 's/n')], // Salamanca: no number by design
  ['Calle Larios nº 5', 'ES', parts('Calle Larios', '5')], // Málaga
  ['Calle Colón 1, bajo', 'ES', parts('Calle Colón', '1', 'bajo')], // Valencia
  ['Paseo de la Castellana 259', 'ES', parts('Paseo de la Castellana', '259')], // Madrid
];

const ITALIAN: Row[] = [
  ['Via del Corso, 120', 'IT', parts('Via del Corso', '120')], // Roma
  ['Via Roma 10/A', 'IT', parts('Via Roma', '10/A')], // Torino: a barred number is the house number
  ['Corso Vittorio Emanuele II, 45', 'IT', parts('Corso Vittorio Emanuele II', '45')], // Milano
  ['Via Toledo 256', 'IT', parts('Via Toledo', '256')], // Napoli
  ['Piazza San Marco, 1', 'IT', parts('Piazza San Marco', '1')], // Venezia
  ['Via dei Calzaiuoli 7', 'IT', parts('Via dei Calzaiuoli', '7')], // Firenze
  ['Via Garibaldi 12 int. 5', 'IT', parts('Via Garibaldi', '12', '5')], // Genova
  ['Via Montenapoleone n. 8', 'IT', parts('Via Montenapoleone', '8')], // Milano
  ['Via XX Settembre 5', 'IT', parts('Via XX Settembre', '5')], // Genova
  ['Via Etnea 10 bis', 'IT', parts('Via Etnea', '10 bis')], // Catania
  ['Via Nazionale 194, scala B, int. 5', 'IT', parts('Via Nazionale', '194', 'scala B, int. 5')], // Roma
];

const HUNGARIAN: Row[] = [
  ['Váci utca 8.', 'HU', parts('Váci utca', '8')], // Budapest
  ['Andrássy út 60. II. em. 3.', 'HU', parts('Andrássy út', '60', 'II. em. 3.')], // Budapest
  ['Kossuth Lajos u. 12/B', 'HU', parts('Kossuth Lajos u.', '12/B')], // Szeged
  ['Rákóczi út 42. fszt. 1.', 'HU', parts('Rákóczi út', '42', 'fszt. 1.')], // Budapest
  ['Piac utca 12.', 'HU', parts('Piac utca', '12')], // Debrecen
  ['Széchenyi tér 1', 'HU', parts('Széchenyi tér', '1')], // Pécs
  ['Dózsa György út 5. 4. emelet 12. ajtó', 'HU', parts('Dózsa György út', '5', '4. emelet 12. ajtó')], // Budapest
  ['Október 6. utca 7.', 'HU', parts('Október 6. utca', '7')], // Budapest
  ['Teréz krt. 19. III/12.', 'HU', parts('Teréz krt.', '19', 'III/12.')], // Budapest
];

const ELSEWHERE: Row[] = [
  ['10 Downing Street', 'GB', parts('Downing Street', '10')],
  ['221B Baker Street', 'GB', parts('Baker Street', '221B')],
  ['12 rue de Rivoli', 'FR', parts('rue de Rivoli', '12')],
  ['12 bis rue de Rivoli', 'FR', parts('rue de Rivoli', '12 bis')],
  ['1600 Pennsylvania Avenue NW', 'US', parts('Pennsylvania Avenue NW', '1600')],
  ['29, Merrion Square', 'IE', parts('Merrion Square', '29')],
  ['Damrak 1', 'NL', parts('Damrak', '1')],
  ['Rue de la Loi 16', 'BE', parts('Rue de la Loi', '16')],
  ['Bahnhofstrasse 10', 'CH', parts('Bahnhofstrasse', '10')],
];

/** Lines whose number cannot be told apart come back as given, trimmed. */
const UNCHANGED: Row[] = [
  ['Lhota', 'CZ', parts('Lhota')], // a place without streets: the number is the land-registry number, given elsewhere
  ['28. října', 'CZ', parts('28. října')],
  ['Vinohradská 1234 / 56', 'CZ', parts('Vinohradská 1234 / 56')],
  ['Čierny Balog', 'SK', parts('Čierny Balog')],
  ['ul. 3 Maja', 'PL', parts('ul. 3 Maja')],
  ['Straße des 17. Juni', 'DE', parts('Straße des 17. Juni')],
  ['Hauptstraße 5, 10115 Berlin', 'DE', parts('Hauptstraße 5, 10115 Berlin')],
  ['Marienplatz', 'DE', parts('Marienplatz')],
  ['Calle Mayor', 'ES', parts('Calle Mayor')],
  ['Via XX Settembre', 'IT', parts('Via XX Settembre')],
  ['Fő utca', 'HU', parts('Fő utca')],
  ['Downing Street', 'GB', parts('Downing Street')],
  ['Flat 3, 10 Downing Street', 'GB', parts('Flat 3, 10 Downing Street')],
  ['rue de Rivoli 12', 'FR', parts('rue de Rivoli 12')],
  ['Schönbrunner Straße 12/Top 5', 'AT', parts('Schönbrunner Straße 12/Top 5')],
  ['Nádražní 5 a 6', 'CZ', parts('Nádražní 5 a 6')],
  ['Keizersgracht 123-II', 'NL', parts('Keizersgracht 123-II')],
  ['Marszałkowska10', 'PL', parts('Marszałkowska10')],
  ['  ', 'CZ', parts('')],
];

describe('splitting a street that carries its house number, by the country\'s convention', () => {
  const countries = { CZECH, SLOVAK, POLISH, GERMAN, AUSTRIAN, SPANISH, ITALIAN, HUNGARIAN };

  it('covers at least six real addresses in each of the countries the issue names, over sixty in all', () => {
    for (const [name, rows] of Object.entries(countries)) expect(rows.length, name).toBeGreaterThanOrEqual(6);
    expect(Object.values(countries).flat().length).toBeGreaterThanOrEqual(60);
  });

  it.each([...Object.values(countries).flat(), ...ELSEWHERE])('%s (%s)', (street, country, expected) => {
    expect(splitStreet(street, country)).toEqual(expected);
  });

  it.each(UNCHANGED)('keeps %s (%s) as it is', (street, country, expected) => {
    expect(splitStreet(street, country)).toEqual(expected);
  });

  it('loses no text: street, number and apartment together hold every word of the line', () => {
    // the words that mark a number or a door, which the split leaves out (each without its final dot)
    const markers = new Set(['č.p', 'čp', 'č', 'p', 'nr', 'nº', 'n', 'm', 'lok', 'int', 'top', 'byt']);
    const words = (text: string) => text.split(/[\s,/]+|(?<=\.)(?=\d)/)
      .map((w) => w.replace(/\.$/, '').toLowerCase())
      .filter((w) => w !== '');
    for (const [street, country] of [...Object.values(countries).flat(), ...ELSEWHERE]) {
      const split = splitStreet(street, country);
      const kept = new Set(words([split.street_name, split.house_number, split.apartment_number].join(' ')));
      for (const word of words(street)) {
        if (!markers.has(word)) expect(kept, `${street}: ${word}`).toContain(word);
      }
    }
  });

  it('returns for hostile lines of 64 KiB, and for hostile lines just within the limit, without splitting nonsense', () => {
    const hostile = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
    for (const unit of ['1/', '1 ', '1', 'a ', 'm. 1 ', 'č.p. ', ', ', '1-a/', 'II. em. ', '3º ', ' ']) {
      const long = hostile(unit, 64 * 1024);
      expect(splitStreet(long, 'PL')).toEqual({ street_name: long.trim() });
      for (const country of ['CZ', 'PL', 'AT', 'ES', 'IT', 'HU', 'GB', 'NL']) {
        const split = splitStreet(hostile(unit, 255), country);
        expect((split.house_number ?? '').length, `${unit} ${country}`).toBeLessThanOrEqual(32);
        expect((split.apartment_number ?? '').length, `${unit} ${country}`).toBeLessThanOrEqual(32);
      }
    }
  });
});
