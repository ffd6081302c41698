import { useState } from 'react';
import { CopyButton } from '../../lib/CopyButton.js';
import { RowsEditor } from '../../lib/RowsEditor.js';
import type { BioFull, Row } from '../../lib/types.js';
import { Field } from '../../lib/ui.js';
import { EditorForm, LoadPage, pick, useFields } from './PageEditor.js';
import { BioPreview } from './Preview.js';

const BLANK = { alias: '', name: '', description: '', avatar: '' };

/** Rows left wholly empty are dropped rather than refused. */
const linksOf = (rows: Row[]) => rows.filter((r) => r.key.trim() || r.value.trim()).map((r) => ({ title: r.key, url: r.value }));

function BioEditor({ detail }: { detail?: BioFull }) {
  const [values, bind] = useFields(pick(BLANK, detail));
  const [rows, setRows] = useState<Row[]>(() => (detail?.links ?? []).map((l) => ({ key: l.title, value: l.url })));
  const links = linksOf(rows);
  return (
    <EditorForm kind="bio" id={detail?.id} body={() => ({ ...values, links })} preview={<BioPreview {...values} links={links} />}>
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
      <RowsEditor legend="Links" id="bio-link" rows={rows} keyLabel="Title" valueLabel="URL" noun="link" onChange={setRows} />
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
