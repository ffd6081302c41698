import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { ErrorNote, Field, PageTitle } from '../../lib/ui.js';
import { addQr, qrKeys, updateQr } from './api.js';
import { hexToRgb, previewPayload, QR_FIELDS, QR_TYPES, type QrKind } from './content.js';
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

/**
 * Create a code (type, its fields, colours, logo) with a live preview; editing sends new content and style,
 * since the API does not return a code's content (its type stays).
 */
export default function QrFormPage({ id }: { id?: number }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [kind, setKind] = useState<QrKind>('link');
  const [name, setName] = useState('');
  const [data, setData] = useState<Record<string, string>>({});
  const [content, setContent] = useState('');
  const [foreground, setForeground] = useState('#000000');
  const [background, setBackground] = useState('#ffffff');
  const [logo, setLogo] = useState('');
  const [logoError, setLogoError] = useState<unknown>(null);
  const style = { foreground: hexToRgb(foreground), background: hexToRgb(background), ...(logo || id ? { logo } : {}) };
  const save = useMutation({
    mutationFn: async () => {
      if (id) return updateQr(id, { data: content, name, ...style }).then(() => id);
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
  const payload = id ? content : previewPayload(kind, data);
  return (
    <>
      <PageTitle title={id ? 'Edit QR code' : 'New QR code'} />
      <form className="panel two" onSubmit={onSubmit}>
        <div>
          {!id && (
            <Field id="qr-type" label="Type">
              <select id="qr-type" value={kind} onChange={(e) => setKind(e.target.value as QrKind)}>
                {QR_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t === 'vcard' ? 'vCard' : t === 'wifi' ? 'Wi-Fi' : t[0]!.toUpperCase() + t.slice(1)}
                  </option>
                ))}
              </select>
            </Field>
          )}
          {id ? (
            <Field
              id="qr-content"
              label="New content"
              hint="The main field of the code's type: the text, URL, phone number, e-mail address, Wi-Fi name or full name."
            >
              <input id="qr-content" required value={content} onChange={(e) => setContent(e.target.value)} aria-describedby="qr-content-hint" />
            </Field>
          ) : (
            QR_FIELDS[kind].map((f) => (
              <Field key={`${kind}-${f.name}`} id={`qr-${f.name}`} label={f.label}>
                <input
                  id={`qr-${f.name}`}
                  type={f.type ?? 'text'}
                  value={data[f.name] ?? ''}
                  onChange={(e) => setData({ ...data, [f.name]: e.target.value })}
                />
              </Field>
            ))
          )}
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
          <Field id="qr-logo" label="Logo (PNG or JPEG, up to 256 KB)">
            <input
              id="qr-logo"
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
            <button type="button" className="small secondary" onClick={() => setLogo('')}>
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
        <QrPreview payload={payload} foreground={foreground} background={background} logo={logo} />
      </form>
    </>
  );
}
