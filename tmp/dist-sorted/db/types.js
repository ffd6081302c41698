export {};
//# sourceMappingURL=types.js.map