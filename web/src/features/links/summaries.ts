import type { LinkChoices } from './api.js';
import { countryLabel } from './countries.js';
import type { LinkForm } from './form.js';

const count = (n: number, one: string, many: string) => (n ? [`${n} ${n === 1 ? one : many}`] : []);
const filled = <T extends { key: string; value: string }>(rows: T[]) => rows.filter((r) => r.key.trim() || r.value.trim());

/**
 * One line per folded section saying what it holds ("" when nothing), so a closed section never hides a
 * value: the summary names it, and an edit form opens the sections that hold one.
 */
export function sectionSummaries(form: LinkForm, choices?: LinkChoices): Record<SectionName, string> {
  const geo = filled(form.geotarget);
  const countries = geo.length <= 2 ? geo.map((r) => countryLabel(r.key)).filter(Boolean) : [];
  const targeting = [
    ...(countries.length === geo.length && geo.length ? countries : count(geo.length, 'country', 'countries')),
    ...count(filled(form.devicetarget).length, 'device', 'devices'),
    ...count(filled(form.languagetarget).length, 'language', 'languages'),
  ];
  const password = form.removePassword ? 'Password removed' : form.password ? 'Password set' : form.hasPassword ? 'Password protected' : '';
  const expiry = form.expiry ? `Expires ${new Date(form.expiry).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' })}` : '';
  const params = filled(form.parameters).map((p) => `${p.key}=${p.value}`);
  const social = [form.metatitle && 'Title', form.metadescription && 'description', form.metaimage && 'image'].filter(Boolean);
  const name = (list: Array<{ id: number; name: string }> | undefined, id: string, what: string) =>
    id ? `${what} ${list?.find((c) => String(c.id) === id)?.name ?? `#${id}`}` : '';
  const grouping = [
    form.description && 'Description',
    name(choices?.campaigns, form.campaign, 'Campaign'),
    name(choices?.channels, form.channel, 'Channel'),
    ...count(form.pixels.length, 'pixel', 'pixels'),
    form.type !== 'direct' && `Type ${typeLabel(form.type, choices)}`,
  ].filter(Boolean);
  return {
    targeting: targeting.join(', '),
    access: [password, expiry].filter(Boolean).join(', '),
    parameters: params.length > 2 ? `${params.slice(0, 2).join(', ')} and ${params.length - 2} more` : params.join(', '),
    social: social.length ? `${social.join(', ')} set` : '',
    grouping: grouping.join(', '),
    routing: [
      ...count(form.rules.length, 'rule', 'rules'),
      form.split.length && `split ${form.split.length} ways`,
      form.maxvisits.trim() && `cap ${form.maxvisits.trim()} visits`,
      form.expiredurl.trim() && 'expired address',
    ]
      .filter(Boolean)
      .join(', ')
      .replace(/^./, (c) => c.toUpperCase()),
    health: [!form.healthcheck && 'Checks off', form.fallbackurl.trim() && `Fallback ${form.fallbackurl.trim().replace(/^https?:\/\//, '')}`]
      .filter(Boolean)
      .join(', '),
  };
}

export type SectionName = 'targeting' | 'routing' | 'access' | 'parameters' | 'social' | 'grouping' | 'health';

/** A redirect type as the form's select names it. */
export function typeLabel(type: string, choices?: LinkChoices): string {
  if (type === 'frame') return 'frame';
  if (type === 'splash') return 'splash';
  const overlay = /^overlay-(\d+)$/.exec(type);
  if (overlay) return `overlay ${choices?.overlays.find((o) => o.id === Number(overlay[1]))?.name ?? overlay[1]}`;
  if (/^\d+$/.test(type)) return `splash ${choices?.splash.find((s) => s.id === Number(type))?.name ?? type}`;
  return type;
}
