import { Link } from 'wouter';
import { CopyButton } from '../../lib/CopyButton.js';
import type { Campaign } from '../../lib/types.js';
import { ResourcePage, type ResourceSpec } from '../resources/ResourcePage.js';

/** A URL as the API gives it, with a copy button. */
const Address = ({ url }: { url: string }) => (
  <>
    <a href={url} className="url-text">
      {url}
    </a>{' '}
    <CopyButton text={url} />
  </>
);

/** The list does not carry the slug: it is the rotator URL's last segment (`{BASE_URL}/r/{slug}`). */
const slugOf = (c: Campaign) => (c.rotator ? decodeURIComponent(c.rotator.slice(c.rotator.lastIndexOf('/') + 1)) : '');

const campaigns: ResourceSpec<Campaign> = {
  title: 'Campaigns',
  noun: 'campaign',
  list: '/campaigns',
  item: 'campaign',
  collection: 'campaigns',
  name: (c) => c.name,
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'slug', label: 'Rotator slug', hint: 'Its rotator address sends each visitor to one of its links in turn. Empty: no rotator.' },
    { name: 'public', label: 'Public list page', type: 'checkbox' },
  ],
  edit: (c) => ({ name: c.name, slug: slugOf(c), public: c.public }),
  columns: [
    { label: 'Name', cell: (c) => <Link href={`/links?campaign=${c.id}`}>{c.name}</Link> },
    { label: 'Rotator', cell: (c) => (c.rotator ? <Address url={c.rotator} /> : <span className="muted">none</span>) },
    {
      label: 'List',
      cell: (c) => (
        <>
          <Address url={c.list} /> <span className="muted">{c.public ? 'public' : 'private'}</span>
        </>
      ),
    },
  ],
};

export default function CampaignsPage() {
  return <ResourcePage spec={campaigns} />;
}
