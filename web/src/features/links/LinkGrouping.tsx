import type { LinkChoices } from './api.js';
import { FieldError, FormField, useDescribed } from './FormField.js';
import type { SectionProps } from './LinkSections.js';

interface GroupingProps extends SectionProps {
  choices?: LinkChoices;
  /** The overlay the link has: overlays can be set on add only, so an edit offers no other. */
  editedType?: string;
}

/** Description, campaign, channel, pixels and the redirect type: how the link is filed and what its visit does. */
export function GroupingFields({ form, set, choices, editedType }: GroupingProps) {
  const togglePixel = (pixel: number, on: boolean) => set('pixels', on ? [...form.pixels, pixel] : form.pixels.filter((p) => p !== pixel));
  const pixelsDescribed = useDescribed('pixels', false);
  return (
    <>
      <FormField id="description" label="Description" hint="For you and your team; visitors do not see it.">
        <input id="description" value={form.description} onChange={(e) => set('description', e.target.value)} />
      </FormField>
      <div className="grid tight">
        <FormField id="campaign" label="Campaign">
          <select id="campaign" value={form.campaign} onChange={(e) => set('campaign', e.target.value)}>
            <option value="">None</option>
            {choices?.campaigns.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="channel" label="Channel">
          <select id="channel" value={form.channel} onChange={(e) => set('channel', e.target.value)}>
            <option value="">None</option>
            {choices?.channels.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </FormField>
        <TypeField form={form} set={set} choices={choices} editedType={editedType} />
      </div>
      <fieldset className="pixels" id="pixels" tabIndex={-1} {...pixelsDescribed}>
        <legend>Pixels</legend>
        <FieldError id="pixels" />
        {choices?.pixels.length === 0 && <p className="muted small">No pixels yet.</p>}
        {choices?.pixels.map((p) => (
          <label className="check" key={p.id}>
            <input type="checkbox" checked={form.pixels.includes(p.id)} onChange={(e) => togglePixel(p.id, e.target.checked)} /> {p.name}{' '}
            <span className="muted small">({p.type})</span>
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** Direct, frame, splash (the default page or one of yours), or on creation one of your overlays. */
function TypeField({ form, set, choices, editedType }: GroupingProps) {
  return (
    <FormField id="type" label="Redirect type">
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
          .filter((o) => editedType === undefined || editedType === `overlay-${o.id}`)
          .map((o) => (
            <option key={`o${o.id}`} value={`overlay-${o.id}`}>
              Overlay: {o.name}
            </option>
          ))}
      </select>
    </FormField>
  );
}
