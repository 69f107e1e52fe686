import { ForbiddenError, NotFoundError } from '../domain/errors.js';

/** Another account's resource is 403; an id that exists nowhere is 404 (the same rule on every resource). */
export function owned<T extends { accountId: string }>(row: T | undefined, accountId: string, what: string, id: string): T {
  if (!row) throw new NotFoundError(`${what} ${id} not found.`);
  if (row.accountId !== accountId) throw new ForbiddenError(`You do not have permission to access ${what.toLowerCase()} ${id}.`);
  return row;
}
