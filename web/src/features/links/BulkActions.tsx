import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import type { LinkEntry } from '../../lib/types.js';
import { assignToCampaign, assignToChannel, deleteLink, linkKeys, type LinkChoices } from './api.js';
import { runBulk, type BulkOutcome } from './bulk.js';

const plural = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;

interface Props {
  selected: LinkEntry[];
  choices: LinkChoices | undefined;
  /** Called after an action ran, so the selection starts afresh. */
  onDone(): void;
}

interface Job {
  links: LinkEntry[];
  did: string;
  act(id: number): Promise<unknown>;
}

/** Delete the selected links, or add them to a campaign or a channel, one API call per link. */
export function BulkActions({ selected, choices, onDone }: Props) {
  const client = useQueryClient();
  const run = useMutation({
    mutationFn: ({ links, did, act }: Job) => runBulk(links, did, act),
    onSuccess: async () => {
      onDone();
      await client.invalidateQueries({ queryKey: linkKeys.all });
    },
  });
  const busy = run.isPending;
  const count = (
    <p className="visually-hidden" aria-live="polite">
      {selected.length ? `${plural(selected.length)} selected` : ''}
    </p>
  );
  // The actions show once a link is selected; the live count is always there so the change is announced.
  if (selected.length === 0 && !run.data) return count;
  return (
    <section className="bulk panel" aria-labelledby="bulk-h">
      <h2 id="bulk-h">{selected.length ? `${plural(selected.length)} selected` : 'Nothing selected'}</h2>
      {count}
      {selected.length > 0 && (
        <div className="actions">
          <ConfirmButton
            label="Delete selected"
            confirm={`Delete ${plural(selected.length)}`}
            busy={busy}
            onConfirm={() => run.mutate({ links: selected, did: 'Deleted', act: deleteLink })}
          />
          <AddTo
            kind="campaign"
            items={choices?.campaigns}
            busy={busy}
            onAdd={(id, name) => run.mutate({ links: selected, did: `Added to campaign ${name}`, act: (link) => assignToCampaign(id, link) })}
          />
          <AddTo
            kind="channel"
            items={choices?.channels}
            busy={busy}
            onAdd={(id, name) => run.mutate({ links: selected, did: `Added to channel ${name}`, act: (link) => assignToChannel(id, link) })}
          />
        </div>
      )}
      {busy && (
        <p className="muted" role="status">
          Working…
        </p>
      )}
      {run.data && <Outcome outcome={run.data} />}
    </section>
  );
}

interface AddToProps {
  kind: 'campaign' | 'channel';
  items: { id: number; name: string }[] | undefined;
  busy: boolean;
  onAdd(id: number, name: string): void;
}

/** A campaign or channel to pick, and the button that adds the selected links to it. */
function AddTo({ kind, items, busy, onAdd }: AddToProps) {
  const [value, setValue] = useState('');
  const id = `bulk-${kind}`;
  const add = () => onAdd(Number(value), items?.find((item) => String(item.id) === value)?.name ?? value);
  return (
    <span className="bulk-pick">
      <label htmlFor={id} className="visually-hidden">{`The ${kind} to add the selected links to`}</label>
      <select id={id} value={value} onChange={(e) => setValue(e.target.value)}>
        <option value="">{kind === 'campaign' ? 'Campaign…' : 'Channel…'}</option>
        {items?.map((item) => (
          <option key={item.id} value={item.id}>
            {item.name}
          </option>
        ))}
      </select>
      <button type="button" className="small secondary" disabled={busy || !value} onClick={add}>
        Add to {kind}
      </button>
    </span>
  );
}

function Outcome({ outcome }: { outcome: BulkOutcome }) {
  return (
    <div className="bulk-outcome">
      <p role="status">
        {outcome.did}: {plural(outcome.done)}.
      </p>
      {outcome.failures.length > 0 && (
        <div role="alert">
          <p className="error">{plural(outcome.failures.length)} failed:</p>
          <ul>
            {outcome.failures.map((f) => (
              <li key={f.alias}>
                <strong>{f.alias}</strong>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
