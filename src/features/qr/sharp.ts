import type SharpModule from 'sharp';

export type Sharp = typeof SharpModule;

let loading: Promise<Sharp> | undefined;

/**
 * sharp (libvips) loaded on the first image a server draws: imported at start it adds about 19 MB of
 * resident memory to every server, most of which never draws a code (docs/performance.md#rss-at-1m).
 */
export function loadSharp(): Promise<Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
