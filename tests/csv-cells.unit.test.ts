import { describe, expect, it } from 'vitest';
import { escapeCsvCell, unescapeCsvCell } from '../src/lib/csv-cells.js';

// Titles are trimmed on the way in, so a leading tab or carriage return reaches no export through the API: checked here.
describe('the CSV formula escape', () => {
  const formulas = ['=1+1', '+1', '-1', '@SUM(1)', '\tx', '\rx', "'=1", "''@x"];
  const plain = ['', 'text', "it's", "'quoted'", 'https://example.com/?a=-1', ' =1', '1-2', "'"];

  it('prefixes a cell that begins with = + - @ tab or CR (after any apostrophes) and nothing else', () => {
    expect(formulas.map(escapeCsvCell)).toEqual(formulas.map((cell) => `'${cell}`));
    expect(plain.map(escapeCsvCell)).toEqual(plain);
  });

  it('reads back every cell it wrote, and leaves other cells alone', () => {
    for (const cell of [...formulas, ...plain]) expect(unescapeCsvCell(escapeCsvCell(cell))).toBe(cell);
    expect(["'x", "'", "'+1"].map(unescapeCsvCell)).toEqual(["'x", "'", '+1']);
  });
});
