import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import type { LinkEntry } from '../../lib/types.js';
import { ErrorNote } from '../../lib/ui.js';
import { assignToCampaign, assignToChannel, deleteLink, linkKeys, type LinkChoices, type LinkQuery } from './api.js';
import { runBulk, runMatching, type BulkOutcome, type MatchingChange } from './bulk.js';

const plural = (n: number) => `${n} ${n === 1 ? 'link' : 'links'}`;

interface Props {
  selected: LinkEntry[];
  choices: LinkChoices | undefined;
  /** Set when "Select all N matching" was chosen: the actions apply to every link the list's query matches. */
  matching?: { count: number; query: LinkQuery };
  /** Called after an action ran, so the selection starts afresh. */
  onDone(): void;
}

interface Job {
  links: LinkEntry[];
  matching?: Props['matching'];
  did: string;
  act(id: number): Promise<unknown>;
  change: MatchingChange;
}

/**
 * Delete the selected links, or add them to a campaign or a channel: one API call per link on screen, or with
 * `matching` one call for every link the list's query matches, however many pages they fill.
 */
export function BulkActions({ selected, choices, matching, onDone }: Props) {
  const client = useQueryClient();
  const run = useMutation({
    mutationFn: ({ links, matching, did, act, change }: Job) => (matching ? runMatching(matching.query, did, change) : runBulk(links, did, act)),
    onSuccess: async () => {
      onDone();
      await client.invalidateQueries({ queryKey: linkKeys.all });
    },
  });
  const busy = run.isPending;
  const total = matching?.count ?? selected.length;
  const chosen = matching ? `All ${total} matching ${total === 1 ? 'link' : 'links'} selected` : `${plural(total)} selected`;
  const count = (
    <p className="visually-hidden" aria-live="polite">
      {total ? chosen : ''}
    </p>
  );
  const start = (did: string, act: Job['act'], change: MatchingChange) => run.mutate({ links: selected, matching, did, act, change });
  // The actions show once a link is selected; the live count is always there so the change is announced.
  if (selected.length === 0 && !run.data && !run.error) return count;
  return (
    <section className="bulk panel" aria-labelledby="bulk-h">
      <h2 id="bulk-h">{total ? chosen : 'Nothing selected'}</h2>
      {count}
      {selected.length > 0 && (
        <div className="actions">
          <ConfirmButton
            label="Delete selected"
            confirm={`Delete ${plural(total)}`}
            busy={busy}
            onConfirm={() => start('Deleted', deleteLink, { action: 'delete' })}
          />
          <AddTo
            kind="campaign"
            items={choices?.campaigns}
            busy={busy}
            onAdd={(id, name) => start(`Added to campaign ${name}`, (link) => assignToCampaign(id, link), { action: 'campaign', campaign: id })}
          />
          <AddTo
            kind="channel"
            items={choices?.channels}
            busy={busy}
            onAdd={(id, name) => start(`Added to channel ${name}`, (link) => assignToChannel(id, link), { action: 'channel', channel: id })}
          />
        </div>
      )}
      {busy && (
        <p className="muted" role="status">
          Working…
        </p>
      )}
      <ErrorNote error={run.error} />
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
