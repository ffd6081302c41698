import { Type, type TSchema } from 'typebox';
import { ERROR_CODES, ERRORS } from '../lib/errors.js';

/** Response shapes of the spec's envelope, shared by every route for validation, serialization and OpenAPI. */
export const ErrorBody = Type.Object(
  {
    error: Type.Literal(1),
    message: Type.String({ description: 'What went wrong, for a person.' }),
    code: Type.String({
      enum: ERROR_CODES,
      description:
        "A stable machine code (an addition to the spec's two keys): " +
        ERROR_CODES.map((code) => `\`${code}\` (${ERRORS[code].status}) ${ERRORS[code].about}`).join(' '),
    }),
  },
  { $id: 'ErrorBody', description: 'Every failure: error 1, a message a person can act on and a code a program can switch on.' },
);

export const OkMessage = Type.Object({ error: Type.Literal(0), message: Type.String() });

export const IdParam = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** An integer id path segment with the spec's bounds. */
export const Id = (description?: string) => Type.Integer({ minimum: 1, maximum: 2147483647, description });

export function listResponse(key: string, item: TSchema) {
  return Type.Object({
    error: Type.Literal('0'),
    data: Type.Object({
      result: Type.Integer(),
      perpage: Type.Integer(),
      currentpage: Type.Integer(),
      nextpage: Type.Integer(),
      maxpage: Type.Integer(),
      [key]: Type.Array(item),
    }),
  });
}

/** The 4xx answers every authenticated route can give, for the OpenAPI document. */
export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};

export const ok = (message: string) => ({ error: 0 as const, message });

/** A `text/csv` answer in the OpenAPI document; the body is a stream, so nothing is serialized against it. */
export const csvResponse = (description: string) => ({ description, content: { 'text/csv': { schema: { type: 'string' } } } });
