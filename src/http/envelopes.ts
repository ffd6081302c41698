import { Type, type TSchema } from 'typebox';

/** Response shapes of the spec's envelope, shared by every route for validation, serialization and OpenAPI. */
export const ErrorBody = Type.Object(
  { error: Type.Literal(1), message: Type.String() },
  { $id: 'ErrorBody', description: 'Every failure: error 1 and a message a person can act on.' },
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
  404: ErrorBody,
  409: ErrorBody,
  429: ErrorBody,
};

export const ok = (message: string) => ({ error: 0 as const, message });
