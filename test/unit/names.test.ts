import { describe, expect, it } from 'vitest';
import { namesFromFullName, splitFullName } from '../../src/domain/names.js';

describe('a full name split into first and last name', () => {
  it.each([
    // the last word is the last name
    ['Jan Novák', 'Jan', 'Novák'],
    ['Jana Nováková', 'Jana', 'Nováková'],
    ['Ján Kováč', 'Ján', 'Kováč'],
    ['Zuzana Horváthová-Nagyová', 'Zuzana', 'Horváthová-Nagyová'],
    ['Anna Maria Kowalska', 'Anna Maria', 'Kowalska'],
    ['Grzegorz Brzęczyszczykiewicz', 'Grzegorz', 'Brzęczyszczykiewicz'],
    ['Hans-Peter Müller', 'Hans-Peter', 'Müller'],
    ['Josef R. Bauer', 'Josef R.', 'Bauer'],
    ['Giulia Rossi', 'Giulia', 'Rossi'],
    ['Marco Di Stefano', 'Marco Di', 'Stefano'],
    ['Nagy Péter', 'Nagy', 'Péter'],
    ['Amadou Ba', 'Amadou', 'Ba'],
    ['Jack Ma', 'Jack', 'Ma'],
    // Spanish double surnames and Dutch particles are not guessed: the last word is the last name
    ['María García López', 'María García', 'López'],
    ['Jan van der Berg', 'Jan van der', 'Berg'],
    // titles before the name stay with the first name
    ['Ing. Jan Novák', 'Ing. Jan', 'Novák'],
    ['Mgr. Petra Svobodová', 'Mgr. Petra', 'Svobodová'],
    ['Bc. Tomáš Dvořák', 'Bc. Tomáš', 'Dvořák'],
    ['MUDr. Eva Černá', 'MUDr. Eva', 'Černá'],
    ['prof. Ing. Karel Veselý, CSc.', 'prof. Ing. Karel CSc.', 'Veselý'],
    ['doc. JUDr. PhDr. Marta Malá', 'doc. JUDr. PhDr. Marta', 'Malá'],
    ['RNDr. Pavel Král', 'RNDr. Pavel', 'Král'],
    ['Dipl.-Ing. Klaus Schmidt', 'Dipl.-Ing. Klaus', 'Schmidt'],
    ['Dr. med. Hans Weber', 'Dr. med. Hans', 'Weber'],
    ['Mag. Maria Huber', 'Mag. Maria', 'Huber'],
    ['dr. Kovács János', 'dr. Kovács', 'János'],
    ['Sra. Carmen Ruiz', 'Sra. Carmen', 'Ruiz'],
    ['Dott.ssa Chiara Bianchi', 'Dott.ssa Chiara', 'Bianchi'],
    ['Pani Agnieszka Nowak', 'Pani Agnieszka', 'Nowak'],
    // a form of address with a last name only reads right on a label
    ['Frau Müller', 'Frau', 'Müller'],
    ['Pan Novák', 'Pan', 'Novák'],
    ['Ing. Novák', 'Ing.', 'Novák'],
    // degrees and generations after the name stay with the first name, with or without a comma
    ['Jan Novák, Ph.D.', 'Jan Ph.D.', 'Novák'],
    ['Ing. Jan Novák, Ph.D., MBA', 'Ing. Jan Ph.D. MBA', 'Novák'],
    ['Jana Malá, DiS.', 'Jana DiS.', 'Malá'],
    ['Petr Dvořák, FCCA', 'Petr FCCA', 'Dvořák'],
    ['Jan Novák Ph.D.', 'Jan Ph.D.', 'Novák'],
    ['Jan Novák CSc', 'Jan CSc', 'Novák'],
    ['Jan Novák ml.', 'Jan ml.', 'Novák'],
    ['John Smith Jr.', 'John Jr.', 'Smith'],
    ['JAN NOVÁK, PHD', 'JAN PHD', 'NOVÁK'],
    ['JAN NOVÁK PHD', 'JAN PHD', 'NOVÁK'],
    // a comma that puts the last name first
    ['Novák, Jan', 'Jan', 'Novák'],
    ['NOVÁK, JAN', 'JAN', 'NOVÁK'],
    ['García López, María', 'María', 'García López'],
    ['Ing. Novák, Jan', 'Ing. Jan', 'Novák'],
    ['Novák, Jan, Ph.D.', 'Jan Ph.D.', 'Novák'],
    ['Novák, J.', 'J.', 'Novák'],
    // whitespace of any kind collapsed
    ['  Jan \u00a0 Novák\t', 'Jan', 'Novák'],
    ['Ing.\u202fJan\nNovák', 'Ing. Jan', 'Novák'],
  ])('splits %j into %j and %j', (full, first_name, last_name) => {
    expect(splitFullName(full)).toEqual({ first_name, last_name });
  });

  it('makes one word a last name and leaves the first name empty, for the API to ask for more', () => {
    expect(splitFullName('Novák')).toEqual({ first_name: '', last_name: 'Novák' });
    expect(splitFullName('Novák, Ph.D.')).toEqual({ first_name: 'Ph.D.', last_name: 'Novák' });
  });

  it('finds no last name in titles alone, or in nothing', () => {
    expect(splitFullName('Frau Dr.')).toEqual({ first_name: 'Frau Dr.', last_name: '' });
    expect(splitFullName('Ing.')).toEqual({ first_name: 'Ing.', last_name: '' });
    expect(splitFullName('')).toEqual({ first_name: '', last_name: '' });
    expect(splitFullName(' , ,\t')).toEqual({ first_name: '', last_name: '' });
  });

  it('answers 64 KiB of hostile text at once', () => {
    expect(splitFullName('a '.repeat(32768)).last_name).toBe('a');
    expect(splitFullName(','.repeat(65536))).toEqual({ first_name: '', last_name: '' });
    expect(splitFullName('Ph.D.,'.repeat(10922)).last_name).toBe('');
    expect(splitFullName(`Jan ${'x'.repeat(65536)}`).last_name).toHaveLength(65536);
    expect(splitFullName(' '.repeat(65536))).toEqual({ first_name: '', last_name: '' });
    expect(splitFullName('.'.repeat(65536)).last_name).toHaveLength(65536);
  });
});

describe('when a full name is split', () => {
  it('splits when the first and last name are empty and a full name is given', () => {
    expect(namesFromFullName({}, 'Ing. Jan Novák')).toEqual({ first_name: 'Ing. Jan', last_name: 'Novák' });
    expect(namesFromFullName({ first_name: '', last_name: ' ' }, 'Jan Novák')).toEqual({ first_name: 'Jan', last_name: 'Novák' });
    expect(namesFromFullName({ first_name: null, last_name: undefined }, 'Jan Novák')).toEqual({ first_name: 'Jan', last_name: 'Novák' });
  });

  it('splits the name of a person at a company', () => {
    expect(namesFromFullName({ company_name: 'ACME s.r.o.' }, 'Jan Novák')).toEqual({ first_name: 'Jan', last_name: 'Novák' });
  });

  it('keeps the contact as it is when there is nothing to split', () => {
    expect(namesFromFullName({ company_name: 'ACME s.r.o.' }, '')).toBeUndefined();
    expect(namesFromFullName({ company_name: 'ACME s.r.o.' }, undefined)).toBeUndefined();
    expect(namesFromFullName({}, '   ')).toBeUndefined();
    expect(namesFromFullName({}, 42)).toBeUndefined();
  });

  it('lets a given first or last name win over the full name', () => {
    expect(namesFromFullName({ first_name: 'Jan', last_name: 'Novák' }, 'Petr Svoboda')).toBeUndefined();
    expect(namesFromFullName({ last_name: 'Novák' }, 'Jan Novák')).toBeUndefined();
    expect(namesFromFullName({ first_name: 'Jan' }, 'Jan Novák')).toBeUndefined();
  });

  it('does not split a full name that only repeats the company name', () => {
    expect(namesFromFullName({ company_name: 'ACME s.r.o.' }, 'ACME  s.r.o.')).toBeUndefined();
    expect(namesFromFullName({ company_name: 'Müller GmbH' }, 'müller gmbh')).toBeUndefined();
  });
});
