import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';

type Serialize = (data: unknown) => string;

/** The serializers built so far, by answer schema: every app of the process shares them (a test process builds many). */
const built = new WeakMap<object, Serialize>();

/**
 * fastify's answer serializer (fast-json-stringify, as by default), built at a route's first answer of that status and
 * not at start-up, and once per schema in the process: a daemon starts without building one for every answer of every
 * route.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) => {
  let serialize: Serialize | undefined;
  return (data) => {
    if (!serialize) {
      serialize = built.get(schema as object) ?? fastJsonStringify(schema as object);
      built.set(schema as object, serialize);
    }
    return serialize(data);
  };
};
