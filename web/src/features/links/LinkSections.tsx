import type { ReactNode } from 'react';
import type { FieldName, LinkForm } from './form.js';
import { FormField } from './FormField.js';
import { UtmBuilder } from './RowsEditor.js';
import { SocialPreview } from './SocialPreview.js';
import type { SectionName } from './summaries.js';
import { TargetRows } from './TargetRows.js';

const DEVICES = ['iphone', 'ipad', 'ios', 'android', 'windows', 'macos', 'linux', 'chromeos', 'mobile', 'tablet', 'desktop'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'pt-br', 'it', 'nl', 'ja', 'zh', 'ko', 'ru', 'ar', 'hi', 'pl', 'tr'];

// What a section offers, while it holds nothing yet.
const EMPTY: Record<SectionName, string> = {
  targeting: 'Not set: by country, device or language',
  routing: 'Not set: rules, A/B split, visit cap',
  access: 'Not set: password, expiry',
  parameters: 'Not set: UTM and other query parameters',
  social: 'Not set: title, description and image for social networks',
  grouping: 'Not set: description, campaign, channel, pixels, redirect type',
  health: 'Checked every few hours; no fallback address',
};

export type Setter = <K extends FieldName>(name: K, value: LinkForm[K]) => void;
export interface SectionProps {
  form: LinkForm;
  set: Setter;
}

/**
 * A folded part of the form. `open` is read once: afterwards the person opens and closes it (and the form
 * opens it to reveal an error), so React never fights them over it.
 */
export function Section({
  name,
  title,
  summary,
  open,
  children,
}: {
  name: SectionName;
  title: string;
  summary: string;
  open: boolean;
  children: ReactNode;
}) {
  return (
    <details className="panel fold" open={open} data-section={name}>
      <summary>
        <span className="fold-title">{title}</span>
        <span className="fold-state muted small">{summary || EMPTY[name]}</span>
      </summary>
      <div className="fold-body">{children}</div>
    </details>
  );
}

export function TargetingFields({ form, set }: SectionProps) {
  return (
    <>
      <p className="muted small">The first matching target wins: device, then language, then country; everyone else goes to the destination.</p>
      <TargetRows
        legend="By country"
        id="geo"
        rows={form.geotarget}
        keyLabel="Country"
        valueLabel="Send to"
        keyList="countries"
        onChange={(r) => set('geotarget', r)}
      />
      <TargetRows
        legend="By device"
        id="device"
        rows={form.devicetarget}
        keyLabel="Device"
        valueLabel="Send to"
        keyList={DEVICES}
        onChange={(r) => set('devicetarget', r)}
      />
      <TargetRows
        legend="By language"
        id="language"
        rows={form.languagetarget}
        keyLabel="Language"
        valueLabel="Send to"
        keyList={LANGUAGES}
        onChange={(r) => set('languagetarget', r)}
      />
    </>
  );
}

export function AccessFields({
  form,
  set,
  editing,
  pastExpiry,
  confirming,
}: SectionProps & { editing: boolean; pastExpiry: boolean; confirming: boolean }) {
  const verb = editing ? 'Save changes' : 'Create link';
  return (
    <>
      <div className="grid tight">
        <FormField id="password" label="Password" hint={editing ? 'Empty: the current password (if any) is kept.' : 'Empty: no password.'}>
          <input
            id="password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            disabled={form.removePassword}
          />
        </FormField>
        <FormField
          id="expiry"
          label="Expires"
          hint="Your local time. Empty: never."
          note={pastExpiry ? 'expiry-warning' : undefined}
          after={
            pastExpiry && (
              <small id="expiry-warning" className="field-warning" role={confirming ? 'alert' : undefined}>
                This date is in the past: the link stops working as soon as it is saved.
                {confirming && ` Select “${verb} anyway” to save it as it is.`}
              </small>
            )
          }
        >
          <input id="expiry" type="datetime-local" value={form.expiry} onChange={(e) => set('expiry', e.target.value)} />
        </FormField>
      </div>
      {editing && form.hasPassword && (
        <label className="check">
          <input type="checkbox" checked={form.removePassword} onChange={(e) => set('removePassword', e.target.checked)} /> Remove the password
        </label>
      )}
    </>
  );
}

export function ParameterFields({ form, set }: SectionProps) {
  return (
    <>
      <UtmBuilder parameters={form.parameters} onChange={(r) => set('parameters', r)} />
      <TargetRows
        legend="Query parameters added to the destination"
        id="param"
        rows={form.parameters}
        keyLabel="Name"
        valueLabel="Value"
        valueType="text"
        noun="parameter"
        onChange={(r) => set('parameters', r)}
      />
    </>
  );
}

export function SocialFields({ form, set }: SectionProps) {
  return (
    <div className="social-fields">
      <div>
        <FormField id="metatitle" label="Meta title">
          <input id="metatitle" value={form.metatitle} onChange={(e) => set('metatitle', e.target.value)} />
        </FormField>
        <FormField id="metadescription" label="Meta description">
          <textarea id="metadescription" rows={3} value={form.metadescription} onChange={(e) => set('metadescription', e.target.value)} />
        </FormField>
        <FormField id="metaimage" label="Meta image" hint="An https address of a jpg or png image.">
          <input id="metaimage" type="url" value={form.metaimage} onChange={(e) => set('metaimage', e.target.value)} />
        </FormField>
      </div>
      <SocialPreview url={form.url} title={form.metatitle || form.title} description={form.metadescription} image={form.metaimage} />
    </div>
  );
}

/** Whether the destination is checked, and where visitors go while it is found broken. */
export function HealthFields({ form, set }: SectionProps) {
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={form.healthcheck} onChange={(e) => set('healthcheck', e.target.checked)} /> Check that the destination still
        answers
      </label>
      <FormField id="fallbackurl" label="Fallback address" hint="Where visitors go while the destination is broken. Empty: none.">
        <input id="fallbackurl" type="url" inputMode="url" value={form.fallbackurl} onChange={(e) => set('fallbackurl', e.target.value)} />
      </FormField>
    </>
  );
}
