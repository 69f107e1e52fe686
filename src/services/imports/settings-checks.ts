import type { FieldErrorCollector } from '../../domain/errors.js';
import { isLabelFormat } from '../../domain/labels.js';
import type { ServiceContext } from '../context.js';
import { checkPrintRequest } from '../printing/print-jobs.js';
import { channelForShipment } from '../shipments/create.js';

/** Checks of the settings every order of a folder or an upload starts from, with the API's messages. */

/** The channel must be this account's and active (every provider gives every label format, converting where needed). */
export async function checkChannel(ctx: ServiceContext, accountId: string, channelId: unknown, errors: FieldErrorCollector): Promise<void> {
  await channelForShipment(ctx, accountId, channelId, errors);
}

export async function checkPrinter(ctx: ServiceContext, accountId: string, printerId: unknown, labelFormat: unknown, errors: FieldErrorCollector): Promise<void> {
  if (typeof printerId === 'string' && isLabelFormat(labelFormat)) {
    await checkPrintRequest(ctx, accountId, { printer_id: printerId, copies: 1 }, labelFormat, errors, '');
  }
}

