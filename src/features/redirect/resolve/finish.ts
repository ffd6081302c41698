import type { Finish } from './compile-routing.js';
import type { PublicLinkRow } from './repo.js';
import { httpHref } from '../../../lib/urls.js';
import { memoize } from '../../../lib/bounded-cache.js';
import { destinationsOf } from '../../links/access.js';

export type { Finish };

// How a compiled link's destinations are written: the link's parameters appended, or its fallback instead.

export function jsonArray(text: string): Array<Record<string, unknown>> {
  if (text === '[]' || !text) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? ((value as unknown[]).filter((v) => v && typeof v === 'object') as Array<Record<string, unknown>>) : [];
  } catch {
    return [];
  }
}

export const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** `name=value&…` of the link's parameters, appended to every destination (existing query kept). */
function parameterSuffix(text: string): string {
  return jsonArray(text)
    .filter((p) => str(p.name) !== '')
    .map((p) => `${encodeURIComponent(str(p.name))}=${encodeURIComponent(str(p.value))}`)
    .join('&');
}

export function withParameters(href: string, suffix: string): string {
  if (!suffix) return href;
  const hashAt = href.indexOf('#');
  const base = hashAt < 0 ? href : href.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : href.slice(hashAt);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${suffix}${hash}`;
}

/** The destinations of a link whose fallback is in use when it has several (which are broken takes a read), else null. */
export function fallbackDestinations(row: PublicLinkRow): string[] | null {
  const urls = destinationsOf(row);
  return urls.length > 1 ? urls : null;
}

/**
 * How each destination is served: with the link's parameters, or, found broken while the link has a fallback, as
 * the fallback as it is (the parameters are the destination's). `broken` names those found broken among several;
 * null or empty (one destination, or checked before they were told apart), every destination counts as broken.
 */
export function finisher(row: PublicLinkRow, broken: Set<string> | null): Finish {
  const suffix = parameterSuffix(row.parameters);
  const fallback = row.fallback ? httpHref(row.fallback) : null;
  if (!fallback) return (href) => withParameters(href, suffix);
  if (!broken?.size) return () => fallback;
  return (href, raw) => (broken.has(raw.trim()) ? fallback : withParameters(href, suffix));
}

/**
 * One string per rule label (`rule:2`, `split:1`, `geo:germany`) for every link that has it: a visit reads its label
 * for the click, and a label shared by many links stays in the CPU's caches where one per link is a miss a visit
 * (docs/performance.md#flat-plans).
 */
export const sharedLabel = memoize((label) => label, 10_000, 256);
