import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { ErrorNote, Field, Loading, PageTitle } from '../../lib/ui.js';
import { addLink, CHOICES_KEY, getLink, linkChoices, linkKeys, updateLink, type LinkChoices } from './api.js';
import { EMPTY_FORM, formOfLink, linkBody, type FieldName, type LinkForm } from './form.js';
import { RowsEditor, UtmBuilder } from './RowsEditor.js';
import { SocialPreview } from './SocialPreview.js';
import { TagsInput } from '../tags/TagsInput.js';

const DEVICES = ['iphone', 'ipad', 'ios', 'android', 'windows', 'macos', 'linux', 'chromeos', 'mobile', 'tablet', 'desktop'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'pt-br', 'it', 'nl', 'ja', 'zh', 'ko', 'ru', 'ar', 'hi', 'pl', 'tr'];

/** Create (no id) or edit a link with every option of `url/add` and `url/{id}/update`. */
export default function LinkFormPage({ id }: { id?: number }) {
  const existing = useQuery({ queryKey: linkKeys.detail(id ?? 0), queryFn: () => getLink(id!), enabled: id !== undefined });
  const choices = useQuery({ queryKey: CHOICES_KEY, queryFn: linkChoices });
  const title = id ? 'Edit link' : 'New link';
  if (id !== undefined && !existing.data) {
    return (
      <>
        <PageTitle title={title} />
        <ErrorNote error={existing.error} />
        {existing.isPending && <Loading />}
      </>
    );
  }
  return (
    <>
      <PageTitle title={title} />
      <ErrorNote error={choices.error} />
      <LinkEditor id={id} initial={existing.data ? formOfLink(existing.data) : EMPTY_FORM} choices={choices.data} />
    </>
  );
}

function LinkEditor({ id, initial, choices }: { id?: number; initial: LinkForm; choices?: LinkChoices }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [form, setForm] = useState(initial);
  const changed = useRef(new Set<FieldName>());
  const set = <K extends FieldName>(name: K, value: LinkForm[K]) => {
    changed.current.add(name);
    setForm((f) => ({ ...f, [name]: value }));
  };
  const save = useMutation({
    mutationFn: () => (id ? updateLink(id, linkBody(form, changed.current)).then((r) => r.id) : addLink(linkBody(form, null)).then((r) => r.id)),
    onSuccess: async (savedId) => {
      await client.invalidateQueries({ queryKey: linkKeys.all });
      navigate(`/links/${savedId}`);
    },
  });
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (save.error) errorRef.current?.scrollIntoView({ block: 'center' });
  }, [save.error]);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const input = (name: 'url' | 'custom' | 'title' | 'description' | 'metatitle' | 'metadescription' | 'metaimage' | 'password') => ({
    id: name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => set(name, e.target.value),
  });
  return (
    <form className="link-form" onSubmit={onSubmit} noValidate>
      <section className="panel">
        <h2>Destination</h2>
        <Field id="url" label="Long URL">
          <input {...input('url')} type="url" required placeholder="https://example.com/page" />
        </Field>
        <div className="grid tight">
          <Field id="custom" label="Custom alias" hint="3 to 64 letters, digits, - or _. Empty: a random one.">
            <input {...input('custom')} aria-describedby="custom-hint" />
          </Field>
          <Field id="domain" label="Domain">
            <select id="domain" value={form.domain} onChange={(e) => set('domain', e.target.value)}>
              <option value="">Default domain</option>
              {choices?.domains.map((d) => (
                <option key={d.id} value={d.domain}>
                  {d.domain}
                </option>
              ))}
            </select>
          </Field>
          <Field id="tags" label="Tags" hint="Enter or a comma adds a tag; up to 10.">
            <TagsInput id="tags" value={form.tags} onChange={(tags) => set('tags', tags)} />
          </Field>
          <Field id="type" label="Redirect type">
            <select id="type" value={form.type} onChange={(e) => set('type', e.target.value)}>
              <option value="direct">Direct (302)</option>
              <option value="frame">Frame</option>
              <option value="splash">Splash (default page)</option>
              {choices?.splash.map((s) => (
                <option key={`s${s.id}`} value={String(s.id)}>
                  Splash: {s.name}
                </option>
              ))}
              {choices?.overlays
                .filter((o) => !id || initial.type === `overlay-${o.id}`)
                .map((o) => (
                  <option key={`o${o.id}`} value={`overlay-${o.id}`}>
                    Overlay: {o.name}
                  </option>
                ))}
            </select>
          </Field>
        </div>
        <div className="grid tight">
          <Field id="title" label="Title (for your list)">
            <input {...input('title')} />
          </Field>
          <Field id="description" label="Description">
            <input {...input('description')} />
          </Field>
        </div>
      </section>

      <section className="panel">
        <h2>Access</h2>
        <div className="grid tight">
          <Field id="password" label="Password" hint={id ? 'Empty: the current password (if any) is kept.' : 'Empty: no password.'}>
            <input
              {...input('password')}
              type="password"
              autoComplete="new-password"
              aria-describedby="password-hint"
              disabled={form.removePassword}
            />
          </Field>
          <Field id="expiry" label="Expires" hint="Your local time. Empty: never.">
            <input
              id="expiry"
              type="datetime-local"
              value={form.expiry}
              onChange={(e) => set('expiry', e.target.value)}
              aria-describedby="expiry-hint"
            />
          </Field>
        </div>
        {id && (
          <label className="check">
            <input type="checkbox" checked={form.removePassword} onChange={(e) => set('removePassword', e.target.checked)} /> Remove the password
          </label>
        )}
      </section>

      <section className="panel">
        <h2>Targeting</h2>
        <p className="muted small">The first matching target wins: device, then language, then country; everyone else goes to the long URL.</p>
        <RowsEditor
          legend="By country"
          id="geo"
          rows={form.geotarget}
          keyLabel="Country"
          valueLabel="Send to"
          onChange={(r) => set('geotarget', r)}
        />
        <RowsEditor
          legend="By device"
          id="device"
          rows={form.devicetarget}
          keyLabel="Device"
          valueLabel="Send to"
          keyList={DEVICES}
          onChange={(r) => set('devicetarget', r)}
        />
        <RowsEditor
          legend="By language"
          id="language"
          rows={form.languagetarget}
          keyLabel="Language"
          valueLabel="Send to"
          keyList={LANGUAGES}
          onChange={(r) => set('languagetarget', r)}
        />
      </section>

      <section className="panel">
        <h2>Parameters</h2>
        <UtmBuilder parameters={form.parameters} onChange={(r) => set('parameters', r)} />
        <RowsEditor
          legend="Query parameters added to the destination"
          id="param"
          rows={form.parameters}
          keyLabel="Name"
          valueLabel="Value"
          valueType="text"
          onChange={(r) => set('parameters', r)}
        />
      </section>

      <section className="panel two">
        <div>
          <h2>Social card</h2>
          <Field id="metatitle" label="Meta title">
            <input {...input('metatitle')} />
          </Field>
          <Field id="metadescription" label="Meta description">
            <textarea {...input('metadescription')} rows={3} />
          </Field>
          <Field id="metaimage" label="Meta image" hint="An https address of a jpg or png image.">
            <input {...input('metaimage')} type="url" aria-describedby="metaimage-hint" />
          </Field>
        </div>
        <SocialPreview url={form.url} title={form.metatitle || form.title} description={form.metadescription} image={form.metaimage} />
      </section>

      <LinkGrouping form={form} choices={choices} set={set} />

      <div ref={errorRef}>
        <ErrorNote error={save.error} />
      </div>
      <div className="actions">
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : id ? 'Save changes' : 'Create link'}
        </button>
        <Link href={id ? `/links/${id}` : '/links'} className="button secondary">
          Cancel
        </Link>
      </div>
    </form>
  );
}

type Setter = <K extends FieldName>(name: K, value: LinkForm[K]) => void;

function LinkGrouping({ form, choices, set }: { form: LinkForm; choices?: LinkChoices; set: Setter }) {
  const togglePixel = (pixel: number, on: boolean) => set('pixels', on ? [...form.pixels, pixel] : form.pixels.filter((p) => p !== pixel));
  return (
    <section className="panel">
      <h2>Grouping and tracking</h2>
      <div className="grid tight">
        <Field id="campaign" label="Campaign">
          <select id="campaign" value={form.campaign} onChange={(e) => set('campaign', e.target.value)}>
            <option value="">None</option>
            {choices?.campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="channel" label="Channel">
          <select id="channel" value={form.channel} onChange={(e) => set('channel', e.target.value)}>
            <option value="">None</option>
            {choices?.channels.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset className="pixels">
        <legend>Pixels</legend>
        {choices?.pixels.length === 0 && <p className="muted small">No pixels yet.</p>}
        {choices?.pixels.map((p) => (
          <label className="check" key={p.id}>
            <input type="checkbox" checked={form.pixels.includes(p.id)} onChange={(e) => togglePixel(p.id, e.target.checked)} /> {p.name}{' '}
            <span className="muted small">({p.type})</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
