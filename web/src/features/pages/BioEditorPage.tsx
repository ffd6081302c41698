import { useState } from 'react';
import { CopyButton } from '../../lib/CopyButton.js';
import { RowsEditor } from '../../lib/RowsEditor.js';
import type { BioFull, Row } from '../../lib/types.js';
import { Field } from '../../lib/ui.js';
import { EditorForm, LoadPage, pick, useFields } from './PageEditor.js';
import { BioPreview } from './Preview.js';

const BLANK = { alias: '', name: '', description: '', avatar: '' };

const linksOf = (rows: Row[]) => rows.map((r) => ({ title: r.key, url: r.value }));

/** A link needs its URL (the title may be left out: the page then shows the URL); an empty row is refused, not dropped. */
const rowErrors = (rows: Row[]) =>
  rows.map((r) => {
    if (r.value.trim()) return undefined;
    return r.key.trim() ? 'This link has no URL: add one, or remove the row.' : 'This row is empty: add a URL, or remove the row.';
  });

function BioEditor({ detail }: { detail?: BioFull }) {
  const [values, bind] = useFields(pick(BLANK, detail));
  const [rows, setRows] = useState<Row[]>(() => (detail?.links ?? []).map((l) => ({ key: l.title, value: l.url })));
  const [errors, setErrors] = useState<(string | undefined)[]>([]);
  const links = linksOf(rows);
  const check = () => {
    const found = rowErrors(rows);
    setErrors(found);
    const first = found.findIndex(Boolean);
    if (first >= 0) document.getElementById(`bio-link-${first}-value`)?.focus();
    return first < 0;
  };
  const change = (next: Row[]) => {
    setRows(next);
    // Once shown, the messages follow the rows as they are fixed or removed.
    if (errors.some(Boolean)) setErrors(rowErrors(next));
  };
  return (
    <EditorForm
      kind="bio"
      id={detail?.id}
      body={() => ({ ...values, links })}
      check={check}
      preview={<BioPreview {...values} links={links.filter((l) => l.title.trim() || l.url.trim())} />}
    >
      {detail && (
        <p>
          Its address: <a href={detail.url}>{detail.url}</a> <CopyButton text={detail.url} />
        </p>
      )}
      <Field id="bio-alias" label="Alias" hint="Its address is this server’s address and the alias: 3 to 64 letters, digits, - or _.">
        <input id="bio-alias" required aria-describedby="bio-alias-hint" {...bind('alias')} />
      </Field>
      <Field id="bio-name" label="Name" hint="The page’s heading.">
        <input id="bio-name" required maxLength={100} aria-describedby="bio-name-hint" {...bind('name')} />
      </Field>
      <Field id="bio-description" label="Description">
        <textarea id="bio-description" rows={3} maxLength={1000} {...bind('description')} />
      </Field>
      <Field id="bio-avatar" label="Picture address" hint="An https address of a square image, or empty.">
        <input id="bio-avatar" type="url" aria-describedby="bio-avatar-hint" {...bind('avatar')} />
      </Field>
      <RowsEditor legend="Links" id="bio-link" rows={rows} keyLabel="Title" valueLabel="URL" noun="link" errors={errors} onChange={change} />
    </EditorForm>
  );
}

/** A bio page: a page of links at its own address on the default domain. */
export default function BioEditorPage({ id }: { id?: number }) {
  return (
    <LoadPage kind="bio" id={id}>
      {(detail) => <BioEditor detail={detail} />}
    </LoadPage>
  );
}
