/** `fn(value)` now when the value is there, else once it is. (Not named `then`: a module exporting `then` is a thenable to `import()`.) */
export function andThen(value, fn) {
    return value instanceof Promise ? value.then(fn) : fn(value);
}
//# sourceMappingURL=maybe-promise.js.map