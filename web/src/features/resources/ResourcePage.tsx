import { useMutation, useQuery, useQueryClient, keepPreviousData } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { api, getData } from '../../lib/api.js';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { EmptyState } from '../../lib/EmptyState.js';
import type { ListBody } from '../../lib/types.js';
import { ErrorNote, Field, Loading, PageTitle, Pagination } from '../../lib/ui.js';

export interface FieldSpec {
  name: string;
  label: string;
  type?: 'text' | 'url' | 'checkbox' | 'select' | 'color';
  /** A select's choices: values shown as they are, or values with a label. */
  options?: readonly (string | { value: string; label: string })[];
  required?: boolean;
  hint?: string;
}

/** One resource of the API with a list, an add and a delete endpoint in the spec's style. */
export interface ResourceSpec<T extends { id: number }> {
  title: string;
  noun: string;
  /** `/campaigns` → GET /api/campaigns, POST /api/campaign/add, DELETE /api/campaign/{id}/delete. */
  list: string;
  item: string;
  collection: string;
  fields: FieldSpec[];
  columns: { label: string; cell(item: T): ReactNode }[];
  name(item: T): string;
  intro?: ReactNode;
  /** Resources edited on a page of their own: a link to it replaces the add form (then `fields` is empty). */
  create?: { href: string; label: string };
  /** The form's values of one item: with it each row has an Edit button and the form sends `PUT {item}/{id}/update`. */
  edit?(item: T): Values;
}

export type Values = Record<string, string | boolean>;

/** The body of `{item}/add` or `/update`: texts trimmed (left out when empty on add, so defaults apply), checkboxes as booleans. */
function bodyOf(fields: FieldSpec[], values: Values, update: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const value = values[f.name];
    if (f.type === 'checkbox') body[f.name] = Boolean(value);
    else if (typeof value === 'string' && (update || value.trim())) body[f.name] = value.trim();
  }
  return body;
}

const optionOf = (option: string | { value: string; label: string }) => (typeof option === 'string' ? { value: option, label: option } : option);

function Input({ field, values, set }: { field: FieldSpec; values: Values; set(name: string, value: string | boolean): void }) {
  const id = `new-${field.name}`;
  const value = values[field.name];
  if (field.type === 'checkbox') {
    return (
      <label className="check">
        <input id={id} type="checkbox" checked={Boolean(value)} onChange={(e) => set(field.name, e.target.checked)} /> {field.label}
      </label>
    );
  }
  const common = { id, value: String(value ?? ''), required: field.required, 'aria-describedby': field.hint ? `${id}-hint` : undefined };
  return (
    <Field id={id} label={field.label} hint={field.hint}>
      {field.type === 'select' ? (
        <select {...common} onChange={(e) => set(field.name, e.target.value)}>
          {field.options!.map(optionOf).map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} type={field.type ?? 'text'} onChange={(e) => set(field.name, e.target.value)} />
      )}
    </Field>
  );
}

const initial = (fields: FieldSpec[]): Values =>
  Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.type === 'checkbox' ? false : f.type === 'select' ? optionOf(f.options![0]!).value : f.type === 'color' ? '#0b57d0' : '',
    ]),
  );

interface TableProps<T extends { id: number }> {
  spec: ResourceSpec<T>;
  items: T[];
  busy: boolean;
  onEdit(item: T): void;
  onDelete(item: T): void;
}

function ResourceTable<T extends { id: number }>({ spec, items, busy, onEdit, onDelete }: TableProps<T>) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            {spec.columns.map((c) => (
              <th key={c.label} scope="col">
                {c.label}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              {spec.columns.map((c) => (
                <td key={c.label}>{c.cell(item)}</td>
              ))}
              <td className="row-actions">
                {spec.edit && (
                  <button type="button" className="small secondary" aria-label={`Edit ${spec.name(item)}`} onClick={() => onEdit(item)}>
                    Edit
                  </button>
                )}
                <ConfirmButton label="Delete" confirm={`Delete ${spec.name(item)}`} busy={busy} onConfirm={() => onDelete(item)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list of one resource with a form to add one (or edit one, when the spec can) and a delete button per row. */
export function ResourcePage<T extends { id: number }>({ spec }: { spec: ResourceSpec<T> }) {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [values, setValues] = useState<Values>(() => initial(spec.fields));
  const [editing, setEditing] = useState<T | null>(null);
  const list = useQuery({
    queryKey: [spec.list, page],
    queryFn: () => getData<ListBody<string, T>>(spec.list, { page, limit: 20 }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: [spec.list] });
  const reset = () => {
    setEditing(null);
    setValues(initial(spec.fields));
  };
  const save = useMutation({
    mutationFn: () =>
      editing
        ? api.put(`/${spec.item}/${editing.id}/update`, bodyOf(spec.fields, values, true))
        : api.post(`/${spec.item}/add`, bodyOf(spec.fields, values, false)),
    onSuccess: () => {
      reset();
      return refresh();
    },
  });
  const remove = useMutation({ mutationFn: (id: number) => api.delete(`/${spec.item}/${id}/delete`), onSuccess: refresh });
  const startEdit = (item: T) => {
    setEditing(item);
    setValues(spec.edit!(item));
    save.reset();
    // The form is above the table: take keyboard users there.
    document.getElementById(`new-${spec.fields[0]!.name}`)?.focus();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const items = (list.data?.[spec.collection] ?? []) as T[];
  return (
    <>
      <PageTitle title={spec.title}>
        {spec.create && (
          <Link href={spec.create.href} className="button">
            {spec.create.label}
          </Link>
        )}
      </PageTitle>
      {spec.intro}
      {spec.fields.length > 0 && (
        <form className="panel" onSubmit={onSubmit} aria-labelledby="add-h">
          <h2 id="add-h">{editing ? `Edit ${spec.name(editing)}` : `New ${spec.noun}`}</h2>
          <div className="grid tight">
            {spec.fields.map((f) => (
              <Input key={f.name} field={f} values={values} set={(name, value) => setValues({ ...values, [name]: value })} />
            ))}
          </div>
          <ErrorNote error={save.error} />
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              {editing ? 'Save' : `Add ${spec.noun}`}
            </button>
            {editing && (
              <button type="button" className="secondary" onClick={reset}>
                Cancel
              </button>
            )}
          </div>
        </form>
      )}
      <ErrorNote error={list.error ?? remove.error} />
      {list.isPending && <Loading />}
      {list.data && items.length === 0 && <ResourceEmpty spec={spec} />}
      {items.length > 0 && (
        <ResourceTable spec={spec} items={items} busy={remove.isPending} onEdit={startEdit} onDelete={(item) => remove.mutate(item.id)} />
      )}
      {list.data && <Pagination page={list.data.currentpage} maxpage={list.data.maxpage} onPage={setPage} />}
    </>
  );
}

/** None yet: the next step is the page that makes one, or the add form above. */
function ResourceEmpty<T extends { id: number }>({ spec }: { spec: ResourceSpec<T> }) {
  const first = spec.fields[0];
  const action = spec.create ?? (first && { label: `Add a ${spec.noun}`, focus: `new-${first.name}` });
  return (
    <EmptyState title={`No ${spec.noun}s yet`} action={action}>
      {spec.create
        ? `Make your first ${spec.noun}; it will be listed here.`
        : `Add your first ${spec.noun} with the form above; it will be listed here.`}
    </EmptyState>
  );
}
