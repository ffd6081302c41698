import { describe, expect, it } from 'vitest';
import { primaryLanguage } from '../src/lib/languages.js';

describe('primaryLanguage, the language a click is counted under', () => {
  it('takes the first language by q, without its region', () => {
    expect(primaryLanguage('fr-CH, fr;q=0.9, en;q=0.8')).toBe('fr');
    expect(primaryLanguage('de;q=0.5, ja')).toBe('ja');
  });

  it('counts a header that names no language, or a made-up one, as Unknown', () => {
    expect(primaryLanguage('')).toBe('Unknown');
    expect(primaryLanguage('*')).toBe('Unknown');
    expect(primaryLanguage('zz')).toBe('Unknown');
    expect(primaryLanguage('abcdefgh-x1')).toBe('Unknown');
    expect(primaryLanguage('i-klingon')).toBe('Unknown');
  });

  it('keeps the labels a visitor can add bounded: random codes all land in one label', () => {
    const labels = new Set(Array.from({ length: 500 }, (_, i) => primaryLanguage(`q${i.toString(36)}x`)));
    expect(labels).toEqual(new Set(['Unknown']));
  });
});
