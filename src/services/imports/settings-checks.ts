import type { FieldErrorCollector } from '../../domain/errors.js';
import { isLabelFormat } from '../../domain/labels.js';
import type { ServiceContext } from '../context.js';
import { checkPrintRequest } from '../printing/print-jobs.js';
import { channelForShipment } from '../shipments/create.js';

/** Checks of the settings every order of a folder or an upload starts from, with the API's messages. */

/** The channel must be this account's and active, and its provider must produce the label format. */
export function checkChannelAndFormat(ctx: ServiceContext, accountId: string, channelId: unknown, labelFormat: unknown, errors: FieldErrorCollector): void {
  const found = channelForShipment(ctx, accountId, channelId, errors);
  if (found && isLabelFormat(labelFormat) && !found.caps.labelFormats.includes(labelFormat)) {
    errors.add('label_format', `provider ${found.caps.provider} cannot produce ${labelFormat} labels (it can: ${found.caps.labelFormats.join(', ')})`);
  }
}

export function checkPrinter(ctx: ServiceContext, accountId: string, printerId: unknown, labelFormat: unknown, errors: FieldErrorCollector): void {
  if (typeof printerId === 'string' && isLabelFormat(labelFormat)) {
    checkPrintRequest(ctx, accountId, { printer_id: printerId, copies: 1 }, labelFormat, errors, '');
  }
}

