/** The first record of a CSV text (its header row): commas between fields, `"` quotes with `""` inside them. */
export function firstRecord(text: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (!quoted && c === ',') {
      fields.push(field);
      field = '';
    } else if (!quoted && (c === '\n' || c === '\r')) {
      break;
    } else {
      field += c;
    }
  }
  fields.push(field);
  return fields;
}

/** The header row of a chosen file, read from its first 64 KB in the browser (as the server reads it). */
export async function readHeader(file: File): Promise<string[]> {
  return firstRecord(await file.slice(0, 64 * 1024).text());
}
