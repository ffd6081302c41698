import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ErrorNote, Field, Loading, PageTitle } from '../../lib/ui.js';
import { TagsInput } from '../tags/TagsInput.js';
import { CHOICES_KEY, getLink, linkChoices, linkKeys, type LinkChoices } from './api.js';
import { EMPTY_FORM, formOfLink, withScheme, type FieldName, type LinkForm } from './form.js';
import { ErrorsContext, FormField } from './FormField.js';
import { LinkCreated } from './LinkCreated.js';
import { RoutingFields } from './RoutingFields.js';
import { GroupingFields } from './LinkGrouping.js';
import {
  AccessFields,
  HealthFields,
  ParameterFields,
  Section,
  SocialFields,
  TargetingFields,
  type SectionProps,
  type Setter,
} from './LinkSections.js';
import { sectionSummaries, type SectionName } from './summaries.js';
import { useLinkSave } from './useLinkSave.js';
import './LinkForm.css';

/** Create (no id) or edit a link with every option of `url/add` and `url/{id}/update`; after a create, its confirmation. */
export default function LinkFormPage({ id }: { id?: number }) {
  const created = Number(new URLSearchParams(useSearch()).get('created'));
  const existing = useQuery({ queryKey: linkKeys.detail(id ?? 0), queryFn: () => getLink(id!), enabled: id !== undefined });
  const choices = useQuery({ queryKey: CHOICES_KEY, queryFn: linkChoices });
  const title = id ? 'Edit link' : 'New link';
  if (id === undefined && created > 0) return <LinkCreated id={created} />;
  // An edit waits for the choices too, so its selects never show "None" for a campaign whose option is not in yet.
  if (id !== undefined && (!existing.data || choices.isPending)) {
    return (
      <>
        <PageTitle title={title} />
        <ErrorNote error={existing.error} />
        {(existing.isPending || choices.isPending) && <Loading />}
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
  const [, navigate] = useLocation();
  const [form, setForm] = useState(initial);
  const changed = useRef(new Set<FieldName>());
  const saver = useLinkSave({
    id,
    form,
    setForm,
    changed: changed.current,
    onSaved: (savedId) => navigate(id ? `/links/${savedId}` : `/links/new?created=${savedId}`),
  });
  const set: Setter = (name, value) => {
    changed.current.add(name);
    saver.clearError(name);
    setForm((f) => ({ ...f, [name]: value }));
  };
  // Sections that hold a value when an edit starts are open; the summaries say what each holds as it changes.
  const [opened] = useState(() => (id ? sectionSummaries(initial, choices) : null));
  const verb = id ? 'Save changes' : 'Create link';
  return (
    <ErrorsContext.Provider value={saver.errors}>
      <form className="link-form" onSubmit={saver.submit} noValidate ref={saver.formRef}>
        <ShortForm form={form} set={set} choices={choices} />
        <FoldedSections form={form} set={set} choices={choices} opened={opened} saver={saver} id={id} initial={initial} />
        <ErrorNote error={saver.error} />
        <div className="actions">
          <button type="submit" disabled={saver.pending}>
            {saver.pending ? 'Saving…' : saver.confirming ? `${verb} anyway` : verb}
          </button>
          <Link href={id ? `/links/${id}` : '/links'} className="button secondary">
            Cancel
          </Link>
        </div>
      </form>
    </ErrorsContext.Provider>
  );
}

/** What most links need, always in view: where it goes, its alias and domain, its tags and a title. */
function ShortForm({ form, set, choices }: { form: LinkForm; set: Setter; choices?: LinkChoices }) {
  return (
    <section className="panel short-form" aria-label="The link">
      <FormField id="url" label="Destination" hint="The page the short link opens. https:// is added when left out.">
        <input
          id="url"
          type="url"
          inputMode="url"
          required
          placeholder="https://example.com/page"
          value={form.url}
          onChange={(e) => set('url', e.target.value)}
          onBlur={() => form.url !== withScheme(form.url) && set('url', withScheme(form.url))}
        />
      </FormField>
      <div className="grid tight">
        <FormField id="domain" label="Domain">
          <select id="domain" value={form.domain} onChange={(e) => set('domain', e.target.value)}>
            <option value="">Default domain</option>
            {choices?.domains.map((d) => (
              <option key={d.id} value={d.domain}>
                {d.domain}
              </option>
            ))}
          </select>
        </FormField>
        <FormField id="custom" label="Custom alias" hint="3 to 64 letters, digits, - or _. Empty: a random one.">
          <input id="custom" value={form.custom} autoComplete="off" onChange={(e) => set('custom', e.target.value)} />
        </FormField>
      </div>
      <Field id="tags" label="Tags" hint="Enter or a comma adds a tag; up to 10.">
        <TagsInput id="tags" value={form.tags} onChange={(tags) => set('tags', tags)} />
      </Field>
      <FormField id="title" label="Title (for your list)">
        <input id="title" value={form.title} onChange={(e) => set('title', e.target.value)} />
      </FormField>
    </section>
  );
}

interface FoldedProps extends SectionProps {
  id?: number;
  initial: LinkForm;
  choices?: LinkChoices;
  opened: Record<SectionName, string> | null;
  saver: ReturnType<typeof useLinkSave>;
}

/** Targeting, routing, access, parameters, social card and grouping, each folded under a summary of what it holds. */
function FoldedSections({ id, initial, form, set, choices, opened, saver }: FoldedProps) {
  const summary = sectionSummaries(form, choices);
  const open = (name: SectionName) => Boolean(opened?.[name]);
  const sectionProps = { form, set };
  return (
    <>
      <Section name="targeting" title="Targeting" summary={summary.targeting} open={open('targeting')}>
        <TargetingFields {...sectionProps} />
      </Section>
      <Section name="routing" title="Routing" summary={summary.routing} open={open('routing')}>
        <RoutingFields {...sectionProps} />
      </Section>
      <Section name="access" title="Access" summary={summary.access} open={open('access')}>
        <AccessFields {...sectionProps} editing={id !== undefined} pastExpiry={saver.pastExpiry} confirming={saver.confirming} />
      </Section>
      <Section name="health" title="Health" summary={summary.health} open={open('health')}>
        <HealthFields {...sectionProps} />
      </Section>
      <Section name="parameters" title="Parameters" summary={summary.parameters} open={open('parameters')}>
        <ParameterFields {...sectionProps} />
      </Section>
      <Section name="social" title="Social card" summary={summary.social} open={open('social')}>
        <SocialFields {...sectionProps} />
      </Section>
      <Section name="grouping" title="Grouping and tracking" summary={summary.grouping} open={open('grouping')}>
        <GroupingFields {...sectionProps} choices={choices} editedType={id ? initial.type : undefined} />
      </Section>
    </>
  );
}
