import { Ajv, type Options } from 'ajv';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Query strings and path parameters arrive as text, so their numbers are coerced; bodies are
 * JSON and must already have the right types. Neither drops unknown fields silently: a schema
 * that forbids them makes them a 400.
 */
const shared: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const textAjv = new Ajv({ ...shared, coerceTypes: 'array' });
const bodyAjv = new Ajv({ ...shared, coerceTypes: false });

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema) as ReturnType<FastifySchemaCompiler<object>>;

/** A check of a JSON value against a schema, without coercion, as a body is checked: for values
 * that come in other ways (lib/site-config-check.ts). */
export const compileBodyCheck = (schema: object): ((value: unknown) => boolean) => bodyAjv.compile(schema);
