import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { QrDetailBody } from '../../lib/types.js';
import { ErrorNote, Field, Loading, PageTitle } from '../../lib/ui.js';
import { addQr, getQr, qrKeys, updateQr } from './api.js';
import { hexToRgb, previewPayload, QR_FIELDS, QR_TYPES, rgbToHex, type QrKind } from './content.js';
import { QrPreview } from './QrPreview.js';

const MAX_LOGO = 256 * 1024;

function readLogo(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!/^image\/(png|jpeg)$/.test(file.type)) return reject(new Error('The logo must be a PNG or JPEG image.'));
    if (file.size > MAX_LOGO) return reject(new Error('The logo must be at most 256 KB.'));
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('The logo could not be read.'));
    reader.readAsDataURL(file);
  });
}

type QrData = Record<string, string | boolean>;

const typeName = (t: string) => (t === 'vcard' ? 'vCard' : t === 'wifi' ? 'Wi-Fi' : t[0]!.toUpperCase() + t.slice(1));

/** Create a code, or edit one filled from what `GET /api/qr/{id}` gives back (type, content, colours, logo). */
export default function QrFormPage({ id }: { id?: number }) {
  const existing = useQuery({ queryKey: qrKeys.detail(id ?? 0), queryFn: () => getQr(id!), enabled: id !== undefined });
  if (id !== undefined && !existing.data)
    return (
      <>
        <PageTitle title="Edit QR code" />
        <ErrorNote error={existing.error} />
        {existing.isPending && <Loading />}
      </>
    );
  return <QrEditor id={id} initial={existing.data?.details} />;
}

/**
 * The form: editing keeps the code's type (fixed at creation) and any content key it has no field for (a Wi-Fi
 * code's encryption, a vCard's address), and sends the logo only when it changed, so saving unchanged changes nothing.
 */
function QrEditor({ id, initial }: { id?: number; initial?: QrDetailBody['details'] }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [kind, setKind] = useState<QrKind>((initial?.type as QrKind | undefined) ?? 'link');
  const [name, setName] = useState(initial?.name ?? '');
  const [data, setData] = useState<QrData>(initial?.data ?? {});
  const [foreground, setForeground] = useState(rgbToHex(initial?.foreground ?? '', '#000000'));
  const [background, setBackground] = useState(rgbToHex(initial?.background ?? '', '#ffffff'));
  const [logo, setLogo] = useState(initial?.logo ?? '');
  const [logoError, setLogoError] = useState<unknown>(null);
  const logoChanged = logo !== (initial?.logo ?? '');
  // The file input cannot show a stored logo, so say it is there (it is in the preview).
  const logoHint = logo && !logoChanged ? 'The current logo (in the preview) stays unless you choose or remove it.' : undefined;
  const style = { foreground: hexToRgb(foreground), background: hexToRgb(background), ...(logoChanged ? { logo } : {}) };
  const save = useMutation({
    mutationFn: async () => {
      if (id) return updateQr(id, { data, name, ...style }).then(() => id);
      return (await addQr({ type: kind, data, name: name || undefined, ...style })).id;
    },
    onSuccess: async (savedId) => {
      await client.invalidateQueries({ queryKey: qrKeys.all });
      navigate(`/qr/${savedId}`);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const text = (v: string | boolean | undefined) => (typeof v === 'string' ? v : '');
  const strings = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, text(v)]));
  return (
    <>
      <PageTitle title={id ? 'Edit QR code' : 'New QR code'} />
      <form className="panel two" onSubmit={onSubmit}>
        <div>
          <Field id="qr-type" label="Type" hint={id ? 'Fixed once the code is made.' : undefined}>
            <select
              id="qr-type"
              value={kind}
              disabled={id !== undefined}
              onChange={(e) => setKind(e.target.value as QrKind)}
              aria-describedby={id ? 'qr-type-hint' : undefined}
            >
              {QR_TYPES.map((t) => (
                <option key={t} value={t}>
                  {typeName(t)}
                </option>
              ))}
            </select>
          </Field>
          {QR_FIELDS[kind].map((f) => (
            <Field key={`${kind}-${f.name}`} id={`qr-${f.name}`} label={f.label}>
              <input
                id={`qr-${f.name}`}
                type={f.type ?? 'text'}
                value={text(data[f.name])}
                onChange={(e) => setData({ ...data, [f.name]: e.target.value })}
              />
            </Field>
          ))}
          <Field id="qr-name" label="Name" hint={id ? 'Empty: keep the current name.' : 'For your list; empty: a summary of the content.'}>
            <input id="qr-name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="qr-name-hint" />
          </Field>
          <div className="grid tight">
            <Field id="qr-fg" label="Foreground">
              <input id="qr-fg" type="color" value={foreground} onChange={(e) => setForeground(e.target.value)} />
            </Field>
            <Field id="qr-bg" label="Background">
              <input id="qr-bg" type="color" value={background} onChange={(e) => setBackground(e.target.value)} />
            </Field>
          </div>
          <Field id="qr-logo" label="Logo (PNG or JPEG, up to 256 KB)" hint={logoHint}>
            <input
              id="qr-logo"
              aria-describedby={logoHint ? 'qr-logo-hint' : undefined}
              type="file"
              accept="image/png,image/jpeg"
              onChange={(e) => {
                const file = e.target.files?.[0];
                setLogoError(null);
                if (!file) return setLogo('');
                readLogo(file).then(setLogo, setLogoError);
              }}
            />
          </Field>
          {logo && (
            <button type="button" className="small secondary remove-logo" onClick={() => setLogo('')}>
              Remove logo
            </button>
          )}
          <ErrorNote error={logoError} />
          <ErrorNote error={save.error} />
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              {id ? 'Save changes' : 'Create QR code'}
            </button>
            <Link href={id ? `/qr/${id}` : '/qr'} className="button secondary">
              Cancel
            </Link>
          </div>
        </div>
        <QrPreview payload={previewPayload(kind, strings)} foreground={foreground} background={background} logo={logo} />
      </form>
    </>
  );
}
