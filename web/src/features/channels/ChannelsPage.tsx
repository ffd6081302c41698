import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { Channel } from '../../lib/types.js';
import { ResourcePage, type ResourceSpec } from '../resources/ResourcePage.js';
import { channelKeys, updateChannel } from './api.js';

/** The channel's colour as a dot; nothing when it has none. */
export const Swatch = ({ color }: { color: string }) => (color ? <span className="swatch" style={{ background: color }} aria-hidden="true" /> : null);

/** Stars or unstars in one press; the list then puts starred channels first. */
function StarButton({ channel }: { channel: Channel }) {
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => updateChannel(channel.id, { starred: !channel.starred }),
    onSuccess: () => client.invalidateQueries({ queryKey: channelKeys.list }),
  });
  return (
    <button
      type="button"
      className="small secondary star"
      aria-pressed={channel.starred}
      aria-label={`Star ${channel.name}`}
      disabled={toggle.isPending}
      onClick={() => toggle.mutate()}
    >
      <span aria-hidden="true">{channel.starred ? '★' : '☆'}</span>
    </button>
  );
}

const channels: ResourceSpec<Channel> = {
  title: 'Channels',
  noun: 'channel',
  list: '/channels',
  item: 'channel',
  collection: 'channels',
  name: (c) => c.name,
  intro: <p className="muted">Folders of links, QR codes and bio pages; starred channels come first.</p>,
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description' },
    { name: 'color', label: 'Colour', type: 'color' },
    { name: 'starred', label: 'Starred', type: 'checkbox' },
  ],
  edit: (c) => ({ name: c.name, description: c.description, color: c.color || '#0b57d0', starred: c.starred }),
  columns: [
    { label: 'Star', cell: (c) => <StarButton channel={c} /> },
    {
      label: 'Name',
      cell: (c) => (
        <>
          <Swatch color={c.color} /> <Link href={`/channels/${c.id}`}>{c.name}</Link>
        </>
      ),
    },
    { label: 'Description', cell: (c) => c.description },
  ],
};

export default function ChannelsPage() {
  return <ResourcePage spec={channels} />;
}
