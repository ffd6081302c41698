import { describe, expect, it } from 'vitest';
import { EXPORT_SIGNATURES, knownExport, recogniseColumns, recogniseHeader } from '../src/features/links/transfer/column-names.js';
import { FORMATS } from '../src/features/links/transfer/import-formats.js';
import { firstRecord } from '../web/src/features/transfer/header.js';

describe('import column names', () => {
  it('knows the exports the server knows, in its order', () => {
    expect(EXPORT_SIGNATURES.map(([name, requires]) => [name, [...requires]])).toEqual(FORMATS.map((f) => [f.name, f.requires]));
  });

  it.each([
    ['URL', 'url'],
    ['Long URL', 'url'],
    ['long_url', 'url'],
    ['longUrl', 'url'],
    ['Destination', 'url'],
    ['target', 'url'],
    ['Slug', 'alias'],
    ['custom', 'alias'],
    ['Short', 'alias'],
    ['back-half', 'alias'],
    ['Title', 'title'],
    ['TAGS', 'tags'],
    ['Notes', undefined],
    ['Link', undefined],
  ])('%s is recognised as %s', (name, field) => {
    expect(recogniseHeader(name)).toBe(field);
  });

  it('preselects each recognised field once and ignores the rest', () => {
    expect(recogniseColumns(['Destination', 'Slug', 'Notes', 'url'])).toEqual(['url', 'alias', 'ignore', 'ignore']);
    expect(knownExport(['shortCode', 'longUrl', 'title'])).toBe('shlink');
    expect(knownExport(['Destination', 'Slug'])).toBeUndefined();
  });

  it('reads a header row the way the dashboard does: quotes, doubled quotes, a BOM, CRLF', () => {
    expect(firstRecord('\uFEFFDestination,"Slug, short","Say ""hi"""\r\nx,y,z')).toEqual(['Destination', 'Slug, short', 'Say "hi"']);
    expect(firstRecord('a,"multi\nline",c\nd')).toEqual(['a', 'multi\nline', 'c']);
  });
});
