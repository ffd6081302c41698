import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { addLink, linkKeys, updateLink } from './api.js';
import { checkForm, fieldErrorText, fieldOfError, isPast, type FieldErrors } from './checks.js';
import { linkBody, tidy, type FieldName, type LinkForm } from './form.js';

interface SaveOptions {
  id?: number;
  form: LinkForm;
  setForm(form: LinkForm): void;
  changed: ReadonlySet<FieldName>;
  onSaved(id: number): void;
}

/** Opens the folded sections around an input, then focuses it, so the person lands on what needs them. */
function reveal(element: HTMLElement | null | undefined) {
  if (!element) return;
  for (let details = element.closest('details'); details; details = details.parentElement?.closest('details') ?? null) details.open = true;
  element.focus();
}

/**
 * Saving the link form: addresses tidied, the obvious mistakes caught in the browser, a past expiry saved
 * only once the person confirms it, and the API's refusal shown beside the field it names. After each
 * refusal the first field in trouble is revealed and focused.
 */
export function useLinkSave({ id, form, setForm, changed, onSaved }: SaveOptions) {
  const client = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [confirmedExpiry, setConfirmedExpiry] = useState<string | null>(null);
  const [focus, setFocus] = useState({ target: '', tick: 0 });
  const focusOn = (target: string) => setFocus((f) => ({ target, tick: f.tick + 1 }));
  useEffect(() => {
    if (!focus.tick) return;
    const root = formRef.current;
    reveal(focus.target ? root?.querySelector<HTMLElement>(`[id="${focus.target}"]`) : root?.querySelector<HTMLElement>('[aria-invalid="true"]'));
  }, [focus]);

  const save = useMutation({
    mutationFn: (sent: LinkForm) => (id ? updateLink(id, linkBody(sent, changed)) : addLink(linkBody(sent, null))).then((r) => r.id),
    onSuccess: async (savedId) => {
      await client.invalidateQueries({ queryKey: linkKeys.all });
      onSaved(savedId);
    },
    onError: (error) => {
      const field = fieldOfError(error);
      if (!field) return;
      setErrors({ [field]: fieldErrorText(error) });
      focusOn('');
    },
  });

  // A past expiry needs a second submit; only when it is being set, not when an old link is saved as it was.
  const pastExpiry = isPast(form.expiry) && (!id || changed.has('expiry'));
  const needsConfirm = pastExpiry && confirmedExpiry !== form.expiry;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const sent = tidy(form);
    setForm(sent);
    save.reset();
    const found = checkForm(sent, id ? changed : null);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusOn('');
    if (needsConfirm) {
      setConfirmedExpiry(form.expiry);
      return focusOn('expiry');
    }
    save.mutate(sent);
  };
  const clearError = (field: string) => setErrors((e) => (field in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== field)) : e));
  const fieldError = save.error && fieldOfError(save.error) ? null : save.error;
  return { formRef, errors, submit, clearError, pending: save.isPending, error: fieldError, pastExpiry, confirming: pastExpiry && !needsConfirm };
}
