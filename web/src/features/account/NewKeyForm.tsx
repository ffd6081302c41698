import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNote, Field } from '../../lib/ui.js';
import { accountKeys, createKey } from './api.js';
import { DEFAULT_ACCESS, FULL_ACCESS, toScopes } from './scopes.js';
import { ScopePicker, type ScopeChoice } from './ScopePicker.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** The last second of a day picked in the person's time zone, as the API's UTC `YYYY-MM-DD HH:MM:SS`. */
export function endOfLocalDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59).toISOString().slice(0, 19).replace('T', ' ');
}

function tomorrow(): string {
  const day = new Date(Date.now() + 86_400_000);
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** Makes a key: its name, what it may do and, if it should stop on its own, the day it expires. `onCreated` gets the secret. */
export function NewKeyForm({ onCreated }: { onCreated(created: { name: string; key: string }): void }) {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [choice, setChoice] = useState<ScopeChoice>({ full: false, areas: DEFAULT_ACCESS });
  const scopes = choice.full ? [FULL_ACCESS] : toScopes(choice.areas);
  const create = useMutation({
    mutationFn: () => createKey({ name: name.trim(), scopes, ...(expires ? { expires: endOfLocalDay(expires) } : {}) }),
    onSuccess: async (answer) => {
      onCreated({ name: name.trim(), key: answer.key });
      setName('');
      setExpires('');
      setChoice({ full: false, areas: DEFAULT_ACCESS });
      await client.invalidateQueries({ queryKey: accountKeys.keys });
      await client.invalidateQueries({ queryKey: accountKeys.activity });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={onSubmit} aria-labelledby="new-key-h" className="new-key">
      <h3 id="new-key-h">New key</h3>
      <div className="grid tight">
        <Field id="key-name" label="Name" hint="Say where it is used, e.g. “Zapier” or “build server”.">
          <input id="key-name" required maxLength={64} value={name} onChange={(e) => setName(e.target.value)} aria-describedby="key-name-hint" />
        </Field>
        <Field id="key-expires" label="Expires (optional)" hint="At the end of that day, your time. Empty: never.">
          <input
            id="key-expires"
            type="date"
            min={tomorrow()}
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            aria-describedby="key-expires-hint"
          />
        </Field>
      </div>
      <ScopePicker value={choice} onChange={setChoice} />
      {scopes.length === 0 && (
        <p className="error" role="alert">
          Choose at least one area, or full access.
        </p>
      )}
      <ErrorNote error={create.error} />
      <button type="submit" disabled={create.isPending || scopes.length === 0}>
        Create key
      </button>
    </form>
  );
}
