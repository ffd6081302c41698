/** Domain errors: services throw these, one table in http/errors.ts maps the kind to a status. */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'notFound'
  | 'conflict'
  | 'tooLarge'
  | 'rateLimited'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (message: string) => new AppError('invalid', message);
export const notFound = (what: string) => new AppError('notFound', `${what} not found.`);
export const conflict = (message: string) => new AppError('conflict', message);

export const AuthError = {
  keyRequired: () => new AppError('unauthorized', 'A valid API key is required to use this service.'),
  rateLimited: (seconds: number) =>
    new AppError('rateLimited', `Too many requests. Try again in ${seconds} seconds.`),
};
