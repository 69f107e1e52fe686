/**
 * Allegro's "Wysyłam z Allegro" shipment management as a local server (Allegro REST API OpenAPI, em411/allegro-php-api
 * `resources/spec.yaml`): OAuth2 user tokens (emulator-oauth.ts), `application/vnd.allegro.public.v1+json`, create and
 * cancel commands that answer IN_PROGRESS on the first status read and then SUCCESS or ERROR, shipments with waybills,
 * one label file for several shipments, the seller's delivery services and parcel tracking per carrier.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { LabelFormat } from '../../domain/labels.js';
import { mergeLabels } from '../../labels/index.js';
import { requireCaller } from '../emulator/auth.js';
import type { EmulatorContext, ProviderEmulator } from '../emulator/contract.js';
import { renderLabel } from '../emulator/labels.js';
import { numberSequence } from '../emulator/numbers.js';
import { noSuchPlace } from '../emulator/no-such-place.js';
import { EmulatedShipments } from '../emulator/shipments.js';
import { warsawTime } from '../local-time.js';
import { ALLEGRO_MEDIA_TYPE } from './client.js';
import { ALLEGRO_TRACKING } from './codes.js';
import { EmulatedAllegroOAuth } from './emulator-oauth.js';
import { AllegroEmulatedPoints, pointProblems, unknownPointCarriers } from './emulator-points.js';
import { commandProblems, EMULATED_SERVICES, schemaErrors, serviceFor } from './emulator-validation.js';
import { labelContent, shipmentView, trackingStatusView, waybillView, type AllegroEmulatedShipment, type AllegroHeld } from './emulator-views.js';
import { renderAllegroProtocol } from './emulator-protocol.js';
import type { AllegroCancelCommand, AllegroCreateCommand, AllegroLabelRequest, AllegroPickupCommand, AllegroPickupProposalsRequest } from './request.js';
import type { AllegroError } from './response.js';

/** Seconds between command status reads that the emulator suggests (the OpenAPI's minimum). */
const RETRY_AFTER_SECONDS = '1';
const MAX_TRACKED_WAYBILLS = 20;

type CommandKind = 'create' | 'cancel' | 'pickup';
/** What a finished command's status adds: the shipment (ShipmentCreateCommandStatusDto) or the pickup (CreatePickupCommandStatusDto). */
type CommandResult = { shipmentId: string } | { pickupId: string; carrierPickupId: string };
type CommandOutcome = { status: 'SUCCESS'; result: CommandResult } | { status: 'ERROR'; errors: AllegroError[] };
const UNFINISHED: Record<CommandKind, Record<string, null>> = {
  create: { shipmentId: null }, cancel: { shipmentId: null }, pickup: { pickupId: null, carrierPickupId: null },
};
/**
 * Pickup slots the emulated carriers offer on a working day, for the asked ready day and the days after it; none at
 * weekends, and today only the slots still to begin (all inferred: the OpenAPI does not say which days carriers collect).
 */
const PICKUP_SLOTS = [{ minTime: '09:00', maxTime: '12:00' }, { minTime: '12:00', maxTime: '16:00' }];
const PICKUP_DAYS = 5;
const DAY_MS = 86_400_000;
/** A day as Allegro's carriers count them, in Warsaw. */
const warsawDay = (at: number) => new Date(at).toLocaleDateString('sv-SE', { timeZone: 'Europe/Warsaw' });

interface EmulatedCommand {
  owner: string;
  reads: number;
  outcome: CommandOutcome;
}

function errorsReply(reply: FastifyReply, status: number, errors: AllegroError[]): FastifyReply {
  return reply.code(status).type(ALLEGRO_MEDIA_TYPE).send({ errors });
}

function error(code: string, message: string, path: string | null = null): AllegroError {
  return { code, message, details: '', path, userMessage: message };
}

export function createAllegroEmulator({ code, clock }: EmulatorContext): ProviderEmulator {
  const oauth = new EmulatedAllegroOAuth(clock);
  const shipments = new EmulatedShipments<AllegroHeld>(clock, ALLEGRO_TRACKING, trackingStatusView);
  const commands = new Map<string, EmulatedCommand>();
  const points = new AllegroEmulatedPoints();
  const dpdWaybill = numberSequence(clock, { prefix: '10', digits: 13 });
  const allegroWaybill = numberSequence(clock, { prefix: 'A0', digits: 10 });
  const pickupNumber = numberSequence(clock, { prefix: 'AD', digits: 9 });
  const waybillFor = (carrierId: string) => (carrierId === 'DPD' ? `${dpdWaybill()}U` : allegroWaybill());

  const label = (s: AllegroEmulatedShipment, format: LabelFormat) =>
    shipments.document(s, format, (parcel) => shipments.label(parcel, () => renderLabel(format, labelContent(s, parcel))));

  const routes: FastifyPluginAsync = async (app) => {
    app.setErrorHandler((err: Error & { statusCode?: number }, _request, reply) => {
      if (err.statusCode === 415) return errorsReply(reply, 415, [error('UnsupportedMediaTypeException', `Unsupported media type; send ${ALLEGRO_MEDIA_TYPE}`)]);
      if (err.statusCode && err.statusCode < 500) return errorsReply(reply, 400, [error('BAD_REQUEST', err.message)]);
      return errorsReply(reply, 500, [error('INTERNAL_SERVER_ERROR', 'Internal server error')]);
    });
    app.setNotFoundHandler((request, reply) => errorsReply(reply, 404, [error('NotFoundException', `No resource at ${request.url}`)]));
    await app.register(oauth.routes);

    const callerOf = requireCaller(app, (request, reply) => {
      const caller = oauth.callerOf(request);
      if (caller) return caller.kind === 'user' ? `user:${caller.seller}` : `app:${caller.clientId}`;
      const hasToken = /^Bearer\s+\S+/i.test(request.headers.authorization ?? '');
      void reply.code(401).type(ALLEGRO_MEDIA_TYPE).send(hasToken
        ? { error: 'invalid_token', error_description: 'Invalid access token' }
        : { error: 'unauthorized', error_description: 'Full authentication is required to access this resource' });
      return undefined;
    });
    /** Shipment management acts for a seller: an application token is refused (Error403), as is a foreign media type. */
    const sellerOf = (request: FastifyRequest, reply: FastifyReply, accept = ALLEGRO_MEDIA_TYPE): string | undefined => {
      const caller = callerOf(request);
      if (!caller.startsWith('user:')) {
        void errorsReply(reply, 403, [{ ...error('AUTHENTICATION_ERROR', 'You are not authorized to perform this operation.', 'header.authorization'), details: 'Access to the requested resource is forbidden' }]);
        return undefined;
      }
      const accepted = request.headers.accept ?? '*/*';
      if (!accepted.includes(accept) && !accepted.includes('*/*')) {
        void errorsReply(reply, 406, [error('NotAcceptableException', "Not acceptable representation requested. Please check 'Accept' request header")]);
        return undefined;
      }
      return caller.slice(5);
    };

    const commandStatus = (kind: CommandKind) => async (request: FastifyRequest, reply: FastifyReply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const { commandId } = request.params as { commandId: string };
      const command = commands.get(`${kind}:${commandId}`);
      if (!command || command.owner !== seller) return errorsReply(reply, 404, [{ ...error('ERROR', "Command doesn't exist", request.url), details: 'Resource not found' }]);
      command.reads++;
      void reply.type(ALLEGRO_MEDIA_TYPE).header('Retry-After', RETRY_AFTER_SECONDS);
      if (command.reads === 1) return { commandId, status: 'IN_PROGRESS', errors: [], ...UNFINISHED[kind] };
      return command.outcome.status === 'SUCCESS'
        ? { commandId, status: 'SUCCESS', errors: [], ...command.outcome.result }
        : { commandId, status: 'ERROR', errors: command.outcome.errors, ...UNFINISHED[kind] };
    };

    /** A command with an id Allegro already has is answered again, never carried out twice. */
    const acceptCommand = (kind: CommandKind, seller: string, body: { commandId?: string }, run: () => CommandOutcome) => {
      const commandId = body.commandId ?? randomUUID();
      if (!commands.has(`${kind}:${commandId}`)) commands.set(`${kind}:${commandId}`, { owner: seller, reads: 0, outcome: run() });
      return { ...body, commandId };
    };

    app.get('/shipment-management/delivery-services', async (request, reply) => {
      if (sellerOf(request, reply) === undefined) return reply;
      return reply.type(ALLEGRO_MEDIA_TYPE).send({ services: EMULATED_SERVICES.map(({ maxWeightKg: _limit, toPoint: _point, ...service }) => service) });
    });

    app.post('/shipment-management/shipments/create-commands', async (request, reply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'ShipmentCreateCommandDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const body = request.body as AllegroCreateCommand;
      const answer = acceptCommand('create', seller, body, () => {
        const service = serviceFor(body.input.deliveryMethodId);
        if (!service) return { status: 'ERROR', errors: commandProblems(body, service) };
        const problems = [...commandProblems(body, service), ...pointProblems(body.input, service, points)];
        if (problems.length > 0) return { status: 'ERROR', errors: problems };
        const s = shipments.add({
          id: randomUUID(), owner: seller, referenceId: body.input.referenceNumber ?? '', product: body.input.deliveryMethodId,
          labelFormat: body.input.labelFormat === 'ZPL' ? 'zpl' : 'pdf', request: { commandId: body.commandId, input: body.input, service },
          numbers: body.input.packages.map(() => waybillFor(service.carrierId)),
        });
        return { status: 'SUCCESS', result: { shipmentId: s.id } };
      });
      return reply.type(ALLEGRO_MEDIA_TYPE).header('Retry-After', RETRY_AFTER_SECONDS).send(answer);
    });
    app.get('/shipment-management/shipments/create-commands/:commandId', commandStatus('create'));

    app.post('/shipment-management/shipments/cancel-commands', async (request, reply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'ShipmentCancelCommandDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const body = request.body as AllegroCancelCommand;
      const answer = acceptCommand('cancel', seller, body, () => {
        const s = shipments.byId(seller, body.input.shipmentId);
        if (!s) return { status: 'ERROR', errors: [error('SHIPMENT_NOT_FOUND', `Shipment ${body.input.shipmentId} not found`, 'shipmentId')] };
        if (shipments.cancel(s) === 'not_cancellable') {
          return { status: 'ERROR', errors: [error('SHIPMENT_CANCELLATION_NOT_ALLOWED', 'The shipment has been handed over to the carrier and cannot be cancelled.', 'shipmentId')] };
        }
        s.request.canceledAt ??= clock.now();
        return { status: 'SUCCESS', result: { shipmentId: s.id } };
      });
      return reply.type(ALLEGRO_MEDIA_TYPE).header('Retry-After', RETRY_AFTER_SECONDS).send(answer);
    });
    app.get('/shipment-management/shipments/cancel-commands/:commandId', commandStatus('cancel'));

    /** The seller's shipments of a hand-over request; a stranger or a cancelled one is refused on its `shipmentIds[i]`. */
    const sellersShipments = (seller: string, ids: readonly string[]): { held: AllegroEmulatedShipment[]; errors: AllegroError[] } => {
      const held: AllegroEmulatedShipment[] = [];
      const errors: AllegroError[] = [];
      ids.forEach((id, i) => {
        const s = shipments.byId(seller, id);
        if (!s) errors.push(error('SHIPMENT_NOT_FOUND', `Shipment ${id} not found.`, `shipmentIds[${i}]`));
        else if (s.request.canceledAt !== undefined) errors.push(error('SHIPMENT_CANCELED', `Shipment ${id} is cancelled.`, `shipmentIds[${i}]`));
        else held.push(s);
      });
      return { held, errors };
    };
    /** The slots offered on `date`: none on a Saturday or Sunday, and today's only while they are still to begin. */
    const slotsOn = (date: string) => {
      if ([0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay())) return [];
      const now = warsawTime.format(clock.now(), ' ');
      return PICKUP_SLOTS.filter((slot) => date > now.slice(0, 10) || (date === now.slice(0, 10) && slot.minTime > now.slice(11, 16))).map((slot) => ({ date, ...slot }));
    };
    const slotsFrom = (day: string) => Array.from({ length: PICKUP_DAYS }, (_, i) => new Date(Date.parse(`${day}T12:00:00Z`) + i * DAY_MS).toISOString().slice(0, 10))
      .flatMap(slotsOn);
    // PickupDateProposalDto's example: id '2023071210001300' names '2023-07-12 10:00-13:00'
    const proposalId = (t: { date: string; minTime: string; maxTime: string }) => `${t.date}${t.minTime}${t.maxTime}`.replace(/[-:]/g, '');

    app.post('/shipment-management/pickup-proposals', async (request, reply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'PickupProposalsRequestDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const body = request.body as AllegroPickupProposalsRequest;
      const today = warsawDay(clock.now());
      if (body.readyDate !== undefined && body.readyDate < today) {
        return errorsReply(reply, 400, [error('VALIDATION_ERROR', `The ready date ${body.readyDate} is in the past.`, 'readyDate')]);
      }
      if (noSuchPlace(body.address.postalCode)) {
        return errorsReply(reply, 400, [error('VALIDATION_ERROR', `No carrier collects at postal code ${body.address.postalCode}: it does not exist.`, 'address.postalCode')]);
      }
      const { errors } = sellersShipments(seller, body.shipmentIds);
      if (errors.length > 0) return errorsReply(reply, 400, errors);
      const times = slotsFrom(body.readyDate ?? today);
      const proposals = body.shipmentIds.map((shipmentId) => ({
        shipmentId, pickupTimes: times, proposalItems: times.map((t) => ({ id: proposalId(t), name: `${t.date} ${t.minTime}-${t.maxTime}` })),
      }));
      return reply.type(ALLEGRO_MEDIA_TYPE).send([{ proposals, address: body.address }]);
    });

    app.post('/shipment-management/pickups/create-commands', async (request, reply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'PickupCreateCommandDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const body = request.body as AllegroPickupCommand;
      const answer = acceptCommand('pickup', seller, body, () => {
        const { held, errors } = sellersShipments(seller, body.input.shipmentIds);
        const time = body.input.pickupTime;
        if (!time) errors.push(error('VALIDATION_ERROR', 'The pickup time is required.', 'pickupTime'));
        else if (time.date < warsawDay(clock.now())) errors.push(error('VALIDATION_ERROR', `The pickup date ${time.date} is in the past.`, 'pickupTime.date'));
        else if (!slotsOn(time.date).some((slot) => slot.minTime === time.minTime && slot.maxTime === time.maxTime)) {
          errors.push(error('VALIDATION_ERROR', `No pickup is offered on ${time.date} ${time.minTime ?? ''}-${time.maxTime ?? ''}.`, 'pickupTime'));
        } else if (body.input.pickupDateProposalId !== undefined && body.input.pickupDateProposalId !== proposalId(time as Required<typeof time>)) {
          errors.push(error('VALIDATION_ERROR', `The pickup proposal ${body.input.pickupDateProposalId} is not the pickup time asked for.`, 'pickupDateProposalId'));
        }
        body.input.shipmentIds.forEach((id, i) => {
          const ordered = shipments.byId(seller, id)?.request.pickup;
          if (ordered) errors.push(error('PICKUP_ALREADY_ORDERED', `A pickup of shipment ${id} is already ordered: ${ordered.carrierPickupId} on ${ordered.date}.`, `shipmentIds[${i}]`));
        });
        if (errors.length > 0) return { status: 'ERROR', errors };
        const pickup = { pickupId: randomUUID(), carrierPickupId: pickupNumber(), date: time!.date, minTime: time!.minTime!, maxTime: time!.maxTime! };
        for (const s of held) s.request.pickup = pickup;
        return { status: 'SUCCESS', result: { pickupId: pickup.pickupId, carrierPickupId: pickup.carrierPickupId } };
      });
      return reply.type(ALLEGRO_MEDIA_TYPE).header('Retry-After', RETRY_AFTER_SECONDS).send(answer);
    });
    app.get('/shipment-management/pickups/create-commands/:commandId', commandStatus('pickup'));

    app.post('/shipment-management/protocol', async (request, reply) => {
      const seller = sellerOf(request, reply, 'application/octet-stream');
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'ShipmentIdsDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const { held, errors } = sellersShipments(seller, (request.body as { shipmentIds: string[] }).shipmentIds);
      const missing = errors.filter((e) => e.code === 'SHIPMENT_NOT_FOUND');
      if (missing.length > 0) return errorsReply(reply, 404, missing.map((e) => ({ ...e, details: 'Resource not found' })));
      if (errors.length > 0) return errorsReply(reply, 400, errors);
      return reply.type('application/octet-stream').send(await renderAllegroProtocol(held, warsawDay(clock.now())));
    });

    app.get('/shipment-management/shipments/:shipmentId', async (request, reply) => {
      const seller = sellerOf(request, reply);
      if (seller === undefined) return reply;
      const s = shipments.byId(seller, (request.params as { shipmentId: string }).shipmentId);
      if (!s) return errorsReply(reply, 404, [{ ...error('SHIPMENT_NOT_FOUND', 'Shipment not found'), details: 'Resource not found' }]);
      return reply.type(ALLEGRO_MEDIA_TYPE).send(shipmentView(s));
    });

    app.post('/shipment-management/label', async (request, reply) => {
      const seller = sellerOf(request, reply, 'application/octet-stream');
      if (seller === undefined) return reply;
      const invalid = schemaErrors(request.body, 'LabelRequestDto');
      if (invalid.length > 0) return errorsReply(reply, 400, invalid);
      const { shipmentIds } = request.body as AllegroLabelRequest;
      const found = shipmentIds.map((id) => shipments.byId(seller, id));
      const missing = shipmentIds.filter((_, i) => !found[i]);
      if (missing.length > 0) return errorsReply(reply, 404, [{ ...error('SHIPMENT_NOT_FOUND', `Shipment ${missing[0]} not found`, 'shipmentIds'), details: 'Resource not found' }]);
      const held = found as AllegroEmulatedShipment[];
      if (held.some((s) => s.request.canceledAt !== undefined)) return errorsReply(reply, 400, [error('SHIPMENT_CANCELED', 'A cancelled shipment has no label.', 'shipmentIds')]);
      const format = held[0]!.labelFormat;
      if (held.some((s) => s.labelFormat !== format)) return errorsReply(reply, 400, [error('VALIDATION_ERROR', 'Shipments have different label formats.', 'shipmentIds')]);
      const parts = await Promise.all(held.map((s) => label(s, format)));
      const file = parts.length === 1 ? parts[0]! : (await mergeLabels(format, parts)).content;
      return reply.type('application/octet-stream').send(Buffer.from(file));
    });

    // The point list answers application tokens too (OpenAPI security: bearer-token-for-application or -user).
    app.get('/order/carriers/ALLEGRO/points', async (request, reply) => {
      const asked = (request.query as { carriers?: string | string[] }).carriers;
      const carriers = (asked === undefined ? [] : Array.isArray(asked) ? asked : [asked]).flatMap((c) => c.split(',')).filter(Boolean);
      const unknown = unknownPointCarriers(carriers);
      if (unknown.length > 0) return errorsReply(reply, 400, [error('VALIDATION_ERROR', `Unknown carrier ${unknown[0]}`, 'carriers')]);
      return reply.type(ALLEGRO_MEDIA_TYPE).send({ points: points.list(carriers) });
    });

    // Tracking answers application tokens too (OpenAPI security: bearer-token-for-application or -user).
    app.get('/order/carriers/:carrierId/tracking', async (request, reply) => {
      const { carrierId } = request.params as { carrierId: string };
      const asked = (request.query as { waybill?: string | string[] }).waybill;
      const waybills = asked === undefined ? [] : Array.isArray(asked) ? asked : [asked];
      if (!EMULATED_SERVICES.some((s) => s.carrierId === carrierId)) return errorsReply(reply, 400, [error('VALIDATION_ERROR', `Unknown carrier ${carrierId}`, 'carrierId')]);
      if (waybills.length === 0 || waybills.length > MAX_TRACKED_WAYBILLS) {
        return errorsReply(reply, 400, [error('VALIDATION_ERROR', `Between 1 and ${MAX_TRACKED_WAYBILLS} waybills are required`, 'waybill')]);
      }
      const parcelOf = (waybill: string) => {
        const found = shipments.parcel(waybill);
        return found?.shipment.request.service.carrierId === carrierId ? found.parcel : undefined;
      };
      return reply.type(ALLEGRO_MEDIA_TYPE).send({ carrierId, waybills: waybills.map((w) => waybillView(w, parcelOf(w))) });
    });
  };

  return {
    code,
    routes,
    control: oauth.control,
    advance: (trackingNumber, to) => shipments.advance(trackingNumber, to),
    shipments: () => shipments.records((s) => ({
      state: s.request.canceledAt !== undefined ? 'CANCELLED' : 'CREATED',
      commandId: s.request.commandId,
      carrier: s.request.service.carrierId,
      receiver: s.request.input.receiver,
      cashOnDelivery: s.request.input.cashOnDelivery ?? null,
      packages: s.request.input.packages,
      pickup: s.request.pickup ?? null,
    })),
    expireTokens: () => oauth.expireAccessTokens(),
    reset: () => {
      shipments.reset();
      commands.clear();
      oauth.reset();
    },
    faultResponse: (status) => ({
      contentType: ALLEGRO_MEDIA_TYPE,
      body: JSON.stringify({
        errors: [status === 429
          ? error('TOO_MANY_REQUESTS', 'Too many requests; the limit of the Client ID was exceeded.')
          : error('INTERNAL_SERVER_ERROR', 'Something went wrong. Try again later.')],
      }),
    }),
  };
}
