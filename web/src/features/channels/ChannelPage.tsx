import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { CopyButton } from '../../lib/CopyButton.js';
import type { ChannelItem } from '../../lib/types.js';
import { ErrorNote, Loading, PageTitle, Pagination } from '../../lib/ui.js';
import { AddItemForm } from './AddItemForm.js';
import { channelKeys, findChannel, ITEM_TYPES, listItems, removeItem, type ItemType } from './api.js';
import { Swatch } from './ChannelsPage.js';

/** Where an item is looked at in the dashboard: a link's or code's statistics, a bio page's editor. */
const pageOf = (item: ChannelItem) => (item.type === 'bio' ? `/bio/${item.id}/edit` : `/${item.type}/${item.id}`);
const nounOf = (item: ChannelItem) => ITEM_TYPES.find((t) => t.type === item.type)?.noun ?? item.type;

function ItemsTable({ items, onRemove, busy }: { items: ChannelItem[]; onRemove(item: ChannelItem): void; busy: boolean }) {
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col">Title</th>
            <th scope="col">Address</th>
            <th scope="col">Added</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={`${item.type}:${item.id}`}>
              <td>{nounOf(item)}</td>
              <td>
                <Link href={pageOf(item)}>{item.title}</Link>
              </td>
              <td>
                <a href={item.link} className="url-text">
                  {item.link}
                </a>{' '}
                <CopyButton text={item.link} />
              </td>
              <td>{item.date}</td>
              <td className="row-actions">
                <button
                  type="button"
                  className="small secondary"
                  disabled={busy}
                  aria-label={`Remove ${item.title} from the channel`}
                  onClick={() => onRemove(item)}
                >
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One channel: its links, QR codes and bio pages, newest assignment first, with a form to add one and a button to remove one. */
export default function ChannelPage({ id }: { id: number }) {
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const channel = useQuery({ queryKey: [...channelKeys.list, 'one', id], queryFn: () => findChannel(id) });
  const items = useQuery({ queryKey: [...channelKeys.items(id), page], queryFn: () => listItems(id, page), placeholderData: keepPreviousData });
  const remove = useMutation({
    mutationFn: (item: ChannelItem) => removeItem(id, item.type as ItemType, item.id),
    onSuccess: () => client.invalidateQueries({ queryKey: channelKeys.items(id) }),
  });
  const found = channel.data;
  return (
    <>
      <PageTitle title={found ? `Channel ${found.name}` : 'Channel'}>
        <Link href="/channels" className="button secondary">
          All channels
        </Link>
      </PageTitle>
      {found && (
        <p className="muted">
          <Swatch color={found.color} /> {found.starred ? 'Starred. ' : ''}
          {found.description}
        </p>
      )}
      <AddItemForm channelId={id} />
      <ErrorNote error={channel.error ?? items.error ?? remove.error} />
      {items.isPending && <Loading />}
      {items.data && items.data.items.length === 0 && <p className="muted">Nothing in this channel yet.</p>}
      {items.data && items.data.items.length > 0 && (
        <ItemsTable items={items.data.items} busy={remove.isPending} onRemove={(item) => remove.mutate(item)} />
      )}
      {items.data && <Pagination page={items.data.currentpage} maxpage={items.data.maxpage} onPage={setPage} />}
    </>
  );
}
