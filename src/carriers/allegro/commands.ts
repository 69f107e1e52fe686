import { CarrierRefusedError } from '../errors.js';
import { pollUntil } from '../poll.js';
import type { CarrierContext } from '../types.js';
import type { AllegroClient } from './client.js';
import { allegroCancelCommand } from './request.js';
import { parseRefusal, type AllegroCommandStatus } from './response.js';

/**
 * Allegro's command pattern (developer.allegro.pl, "Wzorzec Command"): a command with our id is posted, then its
 * status is read until it is no longer IN_PROGRESS, `Retry-After` seconds apart.
 */

/** Past this, an unfinished command is left for a later attempt, which asks for the same command. */
const COMMAND_DEADLINE_MS = 60_000;
const FIRST_WAIT_MS = 1000;

export interface CommandStep {
  /** What the command is about, for the message of a command still running at the deadline. */
  what: string;
  /** The command may have reached Allegro before: ask for it before sending it. */
  known: boolean;
  /** The command's status; undefined while Allegro has never received it. */
  read(): Promise<AllegroCommandStatus | undefined>;
  send(): Promise<{ retryAfterMs: number }>;
}

/** The command's final status (SUCCESS or ERROR): sent once, asked for again rather than sent twice. */
export async function runCommand(ctx: Pick<CarrierContext, 'clock' | 'sleep'>, step: CommandStep): Promise<AllegroCommandStatus> {
  const earlier = step.known ? await step.read() : undefined;
  if (earlier && earlier.status !== 'IN_PROGRESS') return earlier;
  const waitMs = earlier ? FIRST_WAIT_MS : (await step.send()).retryAfterMs;
  return pollUntil(ctx, { delaysMs: [waitMs], deadlineMs: COMMAND_DEADLINE_MS, stillWaiting: `Allegro is still working on ${step.what}` }, async () => {
    const status = await step.read();
    return status && status.status !== 'IN_PROGRESS' ? status : undefined;
  });
}

/** Cancels each shipment with a cancel command; one Allegro already shows as cancelled counts as cancelled. */
export async function cancelShipments(client: AllegroClient, ctx: Pick<CarrierContext, 'clock' | 'sleep'>, shipmentIds: readonly string[]): Promise<void> {
  for (const shipmentId of shipmentIds) {
    const command = allegroCancelCommand(shipmentId, ctx.clock.now());
    const status = await runCommand(ctx, {
      what: `the cancellation of shipment ${shipmentId}`, known: true,
      read: () => client.cancelStatus(command.commandId),
      send: () => client.cancelCommand(command),
    });
    if (status.status !== 'ERROR' || (await client.shipment(shipmentId)).canceledDate) continue;
    const { message, errors } = parseRefusal(200, status);
    throw new CarrierRefusedError(message.replace('refused the shipment', `refused to cancel shipment ${shipmentId}`), errors);
  }
}
