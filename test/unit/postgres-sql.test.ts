import { describe, expect, it } from 'vitest';
import { toPostgres } from '../../src/store/postgres.js';

describe('statements in PostgreSQL spelling', () => {
  it('numbers placeholders, leaving question marks in string literals and quoted names alone', () => {
    expect(toPostgres(`select "a?" from t where x = ? and y = '?' and z in (?, ?)`))
      .toBe(`select "a?" from t where x = $1 and y = '?' and z in ($2, $3)`);
    expect(toPostgres(`update t set note = 'it''s ?' where id = ?`)).toBe(`update t set note = 'it''s ?' where id = $1`);
  });

  it('names the columns of an ON CONFLICT target without their table', () => {
    expect(toPostgres('insert into "jobs" ("kind", "subject_id") values (?, ?) on conflict ("jobs"."kind", "jobs"."subject_id") do nothing'))
      .toBe('insert into "jobs" ("kind", "subject_id") values ($1, $2) on conflict ("kind", "subject_id") do nothing');
  });
});
