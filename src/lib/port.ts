/**
 * A dependency a feature cannot import because the provider imports it (links ↔ channels, say): the feature
 * declares the shape, the composition root (src/compose.ts) plugs the provider in. It holds functions only,
 * the same for every app, so plugging it twice is harmless.
 */
export interface Port<T> {
  plug(provider: T): void;
  /** The provider; throws when the composition root never plugged it (a wiring bug, not a request's). */
  (): T;
}

export function port<T>(name: string): Port<T> {
  let provider: T | undefined;
  const get = (() => {
    if (provider === undefined) throw new Error(`${name} is not plugged in: call composeFeatures() (src/compose.ts) first`);
    return provider;
  }) as Port<T>;
  get.plug = (value) => {
    provider = value;
  };
  return get;
}
