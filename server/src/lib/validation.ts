import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';

/**
 * Query strings and path parameters arrive as text, so their numbers are coerced; bodies are
 * JSON and must already have the right types. Neither drops unknown fields silently: a schema
 * that forbids them makes them a 400.
 */
const shared: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const textAjv = new Ajv({ ...shared, coerceTypes: 'array' });
const bodyAjv = new Ajv({ ...shared, coerceTypes: false });

type Validator = ReturnType<FastifySchemaCompiler<object>>;

const ajvFor = (httpPart: string | undefined): Ajv => (httpPart === 'body' ? bodyAjv : textAjv);

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  ajvFor(httpPart).compile(schema) as Validator;

/**
 * A route's checks, compiled the first time a request needs them rather than as the route is
 * added (its answer's serialiser too, below): a worker that never sees the console's routes never holds
 * their code (docs/performance.md#footprint). A schema that cannot compile still fails a test
 * (server/test/route-schemas.test.ts) rather than a visitor's request.
 */
const checkOnFirstUse: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  let compiled: ValidateFunction | undefined;
  const validate = () => (compiled ??= ajvFor(httpPart).compile(schema));
  // Fastify passes Ajv's context (so Ajv may replace a root value) when the function has Ajv's
  // `schemaEnv`, and reads `errors` after a failed check: both come from the compiled one.
  const check = (data: unknown, context?: Parameters<ValidateFunction>[1]) => validate()(data, context);
  Object.defineProperties(check, {
    schemaEnv: { get: () => validate().schemaEnv },
    errors: { get: () => compiled?.errors },
  });
  return check as Validator;
};

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** Fastify's `schemaController`: the checks above and Fastify's own serialiser, both compiled at
 * first use. Naming both keeps Fastify from loading its default Ajv compiler as well. */
export const schemaController: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    // Fastify types this factory as its default one, which takes Ajv's own schema type; a route's
    // compiler is what Fastify calls either way.
    buildValidator: (() => checkOnFirstUse) as unknown as Factories['buildValidator'],
    buildSerializer: (externalSchemas, options) => {
      const compile = SerializerSelector()(externalSchemas, options);
      return (route) => {
        let compiled: ((data: unknown) => string) | undefined;
        return (data) => (compiled ??= compile(route))(data);
      };
    },
  },
};

/** A check of a JSON value against a schema, without coercion, as a body is checked: for values
 * that come in other ways (lib/site-config-check.ts). */
export const compileBodyCheck = (schema: object): ((value: unknown) => boolean) => bodyAjv.compile(schema);
