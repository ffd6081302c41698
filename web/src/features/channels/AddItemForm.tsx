import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNote, Field } from '../../lib/ui.js';
import { assignItem, channelKeys, ITEM_TYPES, itemChoices, type ItemType } from './api.js';

/** Adds one of your links, QR codes or bio pages to the channel: pick the type, then the item. */
export function AddItemForm({ channelId }: { channelId: number }) {
  const client = useQueryClient();
  const [type, setType] = useState<ItemType>('links');
  const [itemId, setItemId] = useState('');
  const choices = useQuery({ queryKey: channelKeys.choices(type), queryFn: () => itemChoices(type) });
  const add = useMutation({
    mutationFn: () => assignItem(channelId, type, Number(itemId)),
    onSuccess: () => {
      setItemId('');
      return client.invalidateQueries({ queryKey: channelKeys.items(channelId) });
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate();
  };
  const noun = ITEM_TYPES.find((t) => t.type === type)!.noun;
  return (
    <form className="panel" onSubmit={onSubmit} aria-labelledby="add-item-h">
      <h2 id="add-item-h">Add to this channel</h2>
      <div className="grid tight">
        <Field id="item-type" label="Type">
          <select
            id="item-type"
            value={type}
            onChange={(e) => {
              setType(e.target.value as ItemType);
              setItemId('');
              add.reset();
            }}
          >
            {ITEM_TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.noun}
              </option>
            ))}
          </select>
        </Field>
        <Field id="item-id" label={noun}>
          <select id="item-id" value={itemId} required onChange={(e) => setItemId(e.target.value)}>
            <option value="">{choices.isPending ? 'Loading…' : choices.data?.length === 0 ? 'None yet' : 'Choose one'}</option>
            {choices.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <ErrorNote error={choices.error ?? add.error} />
      <button type="submit" disabled={add.isPending || !itemId}>
        Add to channel
      </button>
    </form>
  );
}
