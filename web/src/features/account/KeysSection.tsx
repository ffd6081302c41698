import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { CopyButton } from '../../lib/CopyButton.js';
import { ErrorNote, Loading, When } from '../../lib/ui.js';
import type { ApiKeyEntry } from '../../lib/types.js';
import { accountKeys, listKeys, revokeKey } from './api.js';
import { NewKeyForm } from './NewKeyForm.js';
import { DEFAULT_KEY, ReplaceKey } from './ReplaceKey.js';
import { describeScopes } from './scopes.js';

/** The account's API keys: the list with a revoke button per key, the form that makes one, and a new key's secret, once. */
export function KeysSection() {
  const client = useQueryClient();
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const keys = useQuery({ queryKey: accountKeys.keys, queryFn: listKeys });
  const revoke = useMutation({
    mutationFn: revokeKey,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: accountKeys.keys });
      await client.invalidateQueries({ queryKey: accountKeys.activity });
    },
  });
  return (
    <section className="panel" aria-labelledby="keys-h">
      <h2 id="keys-h">API keys</h2>
      <p>
        Programs use the API with <code>Authorization: Bearer &lt;key&gt;</code>. Give each program its own key with only the access it needs, and
        revoke it when it is done.
      </p>
      {created && <NewSecret created={created} onDone={() => setCreated(null)} />}
      <ErrorNote error={keys.error ?? revoke.error} />
      {keys.isPending && <Loading />}
      {keys.data?.length === 0 && <p className="muted">No keys: programs cannot use the API as this account.</p>}
      {keys.data && keys.data.length > 0 && <KeysTable keys={keys.data} busy={revoke.isPending} onRevoke={(key) => revoke.mutate(key.id)} />}
      {keys.data && <ReplaceKey exists={keys.data.some((key) => key.name === DEFAULT_KEY)} onCreated={setCreated} />}
      <NewKeyForm
        onCreated={(key) => {
          setCreated(key);
          revoke.reset();
        }}
      />
    </section>
  );
}

function KeysTable({ keys, busy, onRevoke }: { keys: ApiKeyEntry[]; busy: boolean; onRevoke(key: ApiKeyEntry): void }) {
  return (
    <div className="table-wrap stack-wrap">
      <table className="stack keys" aria-labelledby="keys-h">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Access</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row" className="strong key-name">
                {key.name}
              </th>
              <td data-label="Access">
                <ul className="chips">
                  {describeScopes(key.scopes).map((chip) => (
                    <li key={chip}>{chip}</li>
                  ))}
                </ul>
              </td>
              <td data-label="Created">
                <When value={key.created} date />
              </td>
              <td data-label="Last used">
                <When value={key.lastUsed} />
              </td>
              <td data-label="Expires">
                <When value={key.expires} />
              </td>
              <td className="row-actions">
                <ConfirmButton label="Revoke" what={key.name} confirm={`Revoke ${key.name}`} busy={busy} onConfirm={() => onRevoke(key)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The secret of a key just made: the only time it is shown, so it takes the focus and says so. */
function NewSecret({ created, onDone }: { created: { name: string; key: string }; onDone(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [created]);
  return (
    <div className="secret" ref={ref} tabIndex={-1} role="region" aria-labelledby="secret-h">
      <h3 id="secret-h">Key “{created.name}” is ready</h3>
      <p className="key">
        <code data-testid="api-key">{created.key}</code> <CopyButton text={created.key} label="Copy key" />
      </p>
      <p className="strong">Copy it now and keep it somewhere safe: you won’t see it again. If it is lost, make a new key and revoke this one.</p>
      <button type="button" className="small secondary" onClick={onDone}>
        I have copied it
      </button>
    </div>
  );
}
