import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { ErrorNote, Loading, PageTitle } from '../../lib/ui.js';
import { detailKey, getPage, KINDS, savePage, type Detail, type Kind } from './api.js';

/** Loads the page being edited (nothing to load for a new one), then hands its fields to the editor. */
export function LoadPage<K extends Kind>({ kind, id, children }: { kind: K; id?: number; children(detail?: Detail[K]): ReactNode }) {
  const query = useQuery({ queryKey: detailKey(kind, id ?? 0), queryFn: () => getPage(kind, id!), enabled: Boolean(id) });
  if (!id) return <>{children()}</>;
  if (query.isPending) return <Loading />;
  if (query.isError)
    return (
      <>
        <PageTitle title={`Edit ${KINDS[kind].noun}`} />
        <ErrorNote error={query.error} />
      </>
    );
  return <>{children(query.data)}</>;
}

type Input = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The editor's texts, and `bind(name)` to tie one to its input; the preview reads the same values as they are typed. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [values, setValues] = useState(initial);
  const bind = (name: keyof F & string) => ({
    value: values[name],
    onChange: (event: ChangeEvent<Input>) => {
      const value = event.target.value;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });
  return [values, bind] as const;
}

/** Only the fields the API keeps, taken from a page's answer. */
export function pick<F extends Record<string, string>>(blank: F, detail: object | undefined): F {
  if (!detail) return blank;
  const source = detail as Record<string, unknown>;
  return Object.fromEntries(Object.entries(blank).map(([key, fallback]) => [key, typeof source[key] === 'string' ? source[key] : fallback])) as F;
}

interface EditorProps {
  kind: Kind;
  id?: number;
  /** The request body, built when the form is sent. */
  body(): object;
  /** Checks the fields before anything is sent: false keeps the form as it is (the editor shows why). */
  check?(): boolean;
  preview: ReactNode;
  children: ReactNode;
}

/** The form's fields beside the live preview (below it at phone width); saving goes back to the list. */
export function EditorForm({ kind, id, body, check, preview, children }: EditorProps) {
  const spec = KINDS[kind];
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const save = useMutation({
    mutationFn: () => savePage(kind, id, body()),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: [spec.list] });
      navigate(spec.route);
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (check && !check()) return;
    save.mutate();
  };
  return (
    <>
      <PageTitle title={`${id ? 'Edit' : 'New'} ${spec.noun}`} />
      <form className="panel two" onSubmit={onSubmit}>
        <div>
          {children}
          <ErrorNote error={save.error} />
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              {id ? 'Save changes' : `Create ${spec.noun}`}
            </button>
            <Link href={spec.route} className="button secondary">
              Cancel
            </Link>
          </div>
        </div>
        {preview}
      </form>
    </>
  );
}
