/**
 * How the Allegro emulator checks shipment-management requests: first against the published OpenAPI components
 * (fixtures/schema), refusing also fields the schema does not name (HTTP 400 with `errors[]`, Error400), then the
 * delivery service's rules, which Allegro reports later as the command's ERROR. The wording of the messages is
 * inferred; the shape, codes seen in Allegro's answers (VALIDATION_ERROR, PACKAGES_COUNT_EXCEEDED) and paths are Allegro's.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ALLEGRO_MAX_PACKAGES, ALLEGRO_MULTI_PARCEL_CARRIERS } from './codes.js';
import vendored from './fixtures/schema/create-request.schema.json' with { type: 'json' };
import type { AllegroCreateCommand, AllegroCreateInput } from './request.js';
import type { AllegroError } from './response.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** A delivery service of the emulated seller: DeviceServiceDto fields plus the limits the emulator enforces. */
export interface EmulatedService {
  id: { deliveryMethodId: string; credentialsId: null };
  name: string;
  carrierId: string;
  owner: 'ALLEGRO';
  marketplaces: string[];
  packageTypes: string[];
  cashOnDelivery: { limit: number; currency: string; paymentType: 'MONEY_TRANSFER' | 'WALLET_TRANSFER'; forceRequireIban: boolean } | null;
  insurance: { limit: number; currency: string };
  additionalServices: unknown[];
  additionalProperties: unknown[];
  features: Record<string, string>;
  maxWeightKg: number;
  /** Delivers to a pickup point (`receiver.point`); Allegro's delivery services say so in no field. */
  toPoint: boolean;
}

/**
 * One multi-parcel DPD method (the OpenAPI's example id), one single-parcel Allegro One method, both to the door, and
 * Allegro One Box to points (its id inferred), all with COD.
 */
export const EMULATED_SERVICES: readonly EmulatedService[] = [
  {
    id: { deliveryMethodId: 'c3066682-97a3-42fe-9eb5-3beeccab840c', credentialsId: null }, name: 'Allegro Kurier DPD', carrierId: 'DPD', owner: 'ALLEGRO',
    marketplaces: ['allegro-pl'], packageTypes: ['PACKAGE', 'DOX', 'OTHER'],
    cashOnDelivery: { limit: 5000, currency: 'PLN', paymentType: 'MONEY_TRANSFER', forceRequireIban: false }, insurance: { limit: 50000, currency: 'PLN' },
    additionalServices: [], additionalProperties: [], features: {}, maxWeightKg: 31.5, toPoint: false,
  },
  {
    id: { deliveryMethodId: '2488f7b7-5d1c-4d65-b85c-4cbcf253fd93', credentialsId: null }, name: 'Allegro One Box, One Kurier', carrierId: 'ALLEGRO', owner: 'ALLEGRO',
    marketplaces: ['allegro-pl'], packageTypes: ['PACKAGE'],
    cashOnDelivery: { limit: 5000, currency: 'PLN', paymentType: 'WALLET_TRANSFER', forceRequireIban: false }, insurance: { limit: 5000, currency: 'PLN' },
    additionalServices: [], additionalProperties: [], features: {}, maxWeightKg: 25, toPoint: false,
  },
  {
    id: { deliveryMethodId: '5e4b2f3c-0b8a-4d2e-9c61-7a1f0d3e8b24', credentialsId: null }, name: 'Allegro One Box', carrierId: 'ALLEGRO', owner: 'ALLEGRO',
    marketplaces: ['allegro-pl'], packageTypes: ['PACKAGE'],
    cashOnDelivery: { limit: 5000, currency: 'PLN', paymentType: 'WALLET_TRANSFER', forceRequireIban: false }, insurance: { limit: 5000, currency: 'PLN' },
    additionalServices: [], additionalProperties: [], features: {}, maxWeightKg: 25, toPoint: true,
  },
];

type Schema = { $ref?: string; allOf?: Schema[]; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: unknown };
const COMPONENTS = (vendored as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;

const validators = new Map<string, ValidateFunction>();

/** A component of the vendored OpenAPI as a validator, compiled on first use. */
function validatorOf(component: string): ValidateFunction {
  let validate = validators.get(component);
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    validate = ajv.compile({ ...vendored, $ref: `#/components/schemas/${component}` });
    validators.set(component, validate);
  }
  return validate;
}

/** `/input/packages/0/weight` → `input.packages[0].weight`, as Allegro writes paths. */
function allegroPath(pointer: string): string {
  return pointer.split('/').filter(Boolean).reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function resolved(schema: Schema): Schema {
  return schema.$ref ? resolved(COMPONENTS[schema.$ref.split('/').pop()!]!) : schema;
}

/** Every key of `value` the schema does not name (objects with free keys, like additionalProperties, excepted). */
function unknownFields(value: unknown, schema: Schema, path: string): string[] {
  const s = resolved(schema);
  const parts = [s, ...(s.allOf ?? []).map(resolved)];
  if (Array.isArray(value)) return s.items ? value.flatMap((v, i) => unknownFields(v, s.items!, `${path}[${i}]`)) : [];
  if (typeof value !== 'object' || value === null || parts.some((p) => p.additionalProperties !== undefined)) return [];
  const known = Object.assign({}, ...parts.map((p) => p.properties ?? {})) as Record<string, Schema>;
  if (Object.keys(known).length === 0) return [];
  return Object.entries(value).flatMap(([key, v]) => {
    const at = path ? `${path}.${key}` : key;
    return Object.hasOwn(known, key) ? unknownFields(v, known[key]!, at) : [at];
  });
}

function schemaError(e: ErrorObject): AllegroError {
  const params = e.params as { missingProperty?: string };
  const path = allegroPath(e.instancePath + (params.missingProperty ? `/${params.missingProperty}` : ''));
  if (e.keyword === 'required') return { code: 'VALIDATION_ERROR', message: 'May not be null', details: 'Invalid value: null', path, userMessage: `The field ${path} is required.` };
  return { code: 'VALIDATION_ERROR', message: e.message ?? e.keyword, details: `Invalid value: ${JSON.stringify(e.data ?? null)}`, path, userMessage: `The field ${path || 'body'} ${e.message ?? 'is invalid'}.` };
}

/** The request body against a component of the OpenAPI: the refusals Allegro answers at once with HTTP 400. */
export function schemaErrors(body: unknown, component: string): AllegroError[] {
  const validate = validatorOf(component);
  const errors = validate(body) ? [] : (validate.errors ?? []).map(schemaError);
  const unknown = unknownFields(body, { $ref: `#/components/schemas/${component}` }, '').map((path): AllegroError => ({
    code: 'VALIDATION_ERROR', message: 'Unrecognized field', details: `Unrecognized field "${path.split('.').pop()}"`, path,
    userMessage: 'The request contains incorrect data. Contact the author of the application.',
  }));
  return [...unknown, ...errors];
}

function problem(code: string, path: string, userMessage: string, details = ''): AllegroError {
  return { code, message: userMessage, details, path, userMessage };
}

function addressProblems(role: 'sender' | 'receiver', a: AllegroCreateInput['sender']): AllegroError[] {
  const problems: AllegroError[] = [];
  const label = role === 'sender' ? "Sender's" : "Receiver's";
  if (!a.name?.trim() && !a.company?.trim()) problems.push(problem('VALIDATION_ERROR', `${role}.name`, `${label} name or company is required.`));
  const digits = a.postalCode.replace(/\D/g, '');
  if (/^[0\s-]+$/.test(a.postalCode) || (a.countryCode === 'PL' && !/^\d{2}-\d{3}$/.test(a.postalCode.trim()))) {
    problems.push(problem('VALIDATION_ERROR', `${role}.postalCode`, `Postal code ${a.postalCode} does not exist in ${a.countryCode}.`, `Invalid value: ${digits}`));
  }
  if (!a.phone.trim()) problems.push(problem('VALIDATION_ERROR', `${role}.phone`, `${label} phone number is required.`, 'Invalid value: null'));
  else if (!/^\+?[\d\s-]{7,20}$/.test(a.phone)) problems.push(problem('VALIDATION_ERROR', `${role}.phone`, `${label} phone number is incorrect.`, `Invalid value: ${a.phone}`));
  if (!/^[^@\s]+@[^@\s]+$/.test(a.email)) problems.push(problem('VALIDATION_ERROR', `${role}.email`, `${label} e-mail address is incorrect.`));
  return problems;
}

/** The delivery service's rules for a schema-valid command: what its ERROR lists (empty: it succeeds). */
export function commandProblems(command: AllegroCreateCommand, service: EmulatedService | undefined): AllegroError[] {
  const input = command.input;
  if (!service) return [problem('VALIDATION_ERROR', 'deliveryMethodId', `Delivery method ${input.deliveryMethodId ?? '(none)'} is not available for this account.`)];
  const problems = [...addressProblems('sender', input.sender), ...addressProblems('receiver', input.receiver)];
  if (input.credentialsId) problems.push(problem('VALIDATION_ERROR', 'credentialsId', `Credentials ${input.credentialsId} do not belong to this account.`));
  const most = ALLEGRO_MULTI_PARCEL_CARRIERS.includes(service.carrierId) ? ALLEGRO_MAX_PACKAGES : 1;
  if (input.packages.length === 0) problems.push(problem('VALIDATION_ERROR', 'packages', 'At least one parcel is required.'));
  if (input.packages.length > most) problems.push(problem('PACKAGES_COUNT_EXCEEDED', 'packages', `Maximum number of parcels is ${most}`));
  input.packages.forEach((p, i) => {
    if (!service.packageTypes.includes(p.type)) problems.push(problem('VALIDATION_ERROR', `packages[${i}].type`, `Package type ${p.type} is not available for ${service.name}.`));
    if (p.weight.value > service.maxWeightKg) {
      problems.push(problem('PACKAGE_MAX_WEIGHT_EXCEEDED', `packages[${i}].weight`, `Maximum weight of a package is ${service.maxWeightKg} kg.`, `Invalid value: ${p.weight.value}`));
    }
    for (const side of ['length', 'width', 'height'] as const) {
      if (!(p[side].value > 0)) problems.push(problem('PACKAGE_MIN_SIZE_EXCEEDED', `packages[${i}].${side}`, `The ${side} of a package must be greater than 0.`));
    }
  });
  const cod = input.cashOnDelivery;
  if (cod) {
    const limit = service.cashOnDelivery;
    if (!limit) problems.push(problem('VALIDATION_ERROR', 'cashOnDelivery', `${service.name} does not offer cash on delivery.`));
    else if (cod.currency !== limit.currency) problems.push(problem('VALIDATION_ERROR', 'cashOnDelivery.currency', `Cash on delivery is paid in ${limit.currency}.`));
    else if (Number(cod.amount.replace(',', '.')) > limit.limit) problems.push(problem('VALIDATION_ERROR', 'cashOnDelivery.amount', `Cash on delivery cannot exceed ${limit.limit} ${limit.currency}.`));
    else if (limit.forceRequireIban && !cod.iban) problems.push(problem('VALIDATION_ERROR', 'cashOnDelivery.iban', 'A bank account number is required for cash on delivery.'));
  }
  return problems;
}

export function serviceFor(deliveryMethodId: string | undefined): EmulatedService | undefined {
  return EMULATED_SERVICES.find((s) => s.id.deliveryMethodId === deliveryMethodId);
}
