import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { type AppError, fail } from '../lib/errors.js';
import { validationMessage, type AjvIssue } from './errors.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({ coerceTypes, useDefaults: true, removeAdditional: false, allErrors: false, strict: false });
  addFormats(ajv);
  return ajv;
}

const FIELD_NAME = /^[A-Za-z0-9_]{1,64}$/;

/**
 * The JSON pointer of the first string holding a NUL character, or null. The pointer stops at the first
 * key that is not a plain field name, so a caller's odd keys are never echoed. Iterative: bodies may nest deeply.
 */
export function findNul(data: unknown): string | null {
  const stack: Array<[unknown, string | null, string]> = [[data, '', '']];
  while (stack.length > 0) {
    const [value, named, parent] = stack.pop()!;
    const path = named ?? parent;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return path;
        stack.push([item, named !== null && FIELD_NAME.test(key) ? `${path}/${key}` : null, path]);
      }
    }
  }
  return null;
}

/** Parsed JSON bodies whose text spells no NUL: walking them again for one would find none. */
const nulFree = new WeakSet<object>();

/**
 * JSON can hold NUL only as the escape `\u0000` (a raw control character is invalid JSON), and only
 * where its backslash starts an escape, i.e. follows an even run of backslashes. One linear pass.
 */
export function spellsNul(json: string): boolean {
  for (let at = json.indexOf('\\u0000'); at !== -1; at = json.indexOf('\\u0000', at + 6)) {
    let before = at;
    while (before > 0 && json.charCodeAt(before - 1) === 0x5c) before--;
    if ((at - before) % 2 === 0) return true;
  }
  return false;
}

/** Called by the JSON parser: a body parsed from text without NUL skips the walk of findNul. */
export function markNulFree(json: string, value: unknown): void {
  if (value !== null && typeof value === 'object' && !spellsNul(json)) nulFree.add(value);
}

/**
 * PostgreSQL cannot store or compare text holding NUL (an insert or lookup fails with a 500), and no
 * field has a use for it: every validated part (body, query, path) refuses it, on both databases.
 */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const check = ((data: unknown) => {
    const at = data !== null && typeof data === 'object' && nulFree.has(data) ? null : findNul(data);
    if (at === null) {
      const valid = validate(data);
      check.errors = validate.errors;
      return valid;
    }
    const issue: ErrorObject = { instancePath: at, schemaPath: '', keyword: 'nul', params: {}, message: 'must not contain NUL characters' };
    check.errors = [issue];
    return false;
  }) as ValidateFunction;
  return check;
}

/**
 * Query strings and path segments are text, so they are coerced to the schema's types; JSON bodies
 * are not: a number where a string belongs is refused with a message naming the field.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const coercing = makeAjv('array');
  const strict = makeAjv(false);
  return ({ schema, httpPart }) => refusingNul((httpPart === 'body' ? strict : coercing).compile(schema as object));
}

/** A request body's own check, for parts of a body validated one by one (bulk items): the 400 it would get alone, or null. */
export function bodyChecker(schema: object): (value: unknown) => AppError | null {
  const check = refusingNul(makeAjv(false).compile(schema));
  return (value) => (check(value) ? null : fail('invalid_field', validationMessage(check.errors as AjvIssue[])));
}
