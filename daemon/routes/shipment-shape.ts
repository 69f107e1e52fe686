import type { ErrorObject } from 'ajv';
import type { FieldErrors } from '../../src/domain/errors.js';
import { fieldErrorsFromAjv, validatorCompiler } from '../http/validation.js';
import { CreateShipmentBody } from './shipment-schemas.js';

type CompiledCheck = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * The creation body's JSON-schema check exactly as `POST /v1/shipments` runs it (same schema, same messages, same
 * defaults filled in), for bodies built from order files.
 */
export function shipmentShapeChecker(): (body: Record<string, unknown>) => FieldErrors {
  const check = validatorCompiler({ schema: CreateShipmentBody, httpPart: 'body', method: 'POST', url: '/v1/shipments' }) as unknown as CompiledCheck;
  return (body) => (check(body) ? {} : fieldErrorsFromAjv(check.errors ?? [], 'body'));
}
