/**
 * A value that is there now or later. The redirect path reads SQLite synchronously and PostgreSQL
 * asynchronously; code written against this type stays synchronous on SQLite, where a promise per step
 * of a cache miss (read, compile, store) cost more than the steps themselves.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `fn(value)` now when the value is there, else once it is. (Not named `then`: a module exporting `then` is a thenable to `import()`.) */
export function andThen<T, R>(value: MaybePromise<T>, fn: (resolved: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(fn) : fn(value);
}
