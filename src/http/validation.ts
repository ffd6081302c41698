import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

/**
 * Query strings and path segments are text, so they are coerced to the schema's types; JSON bodies
 * are not: a number where a string belongs is refused with a message naming the field.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = makeAjv('array');
  const strict = makeAjv(false);
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
