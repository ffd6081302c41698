import { CopyButton } from '../../lib/CopyButton.js';
import type { Campaign, Channel, Domain, Pixel } from '../../lib/types.js';
import { formatDate } from '../../lib/ui.js';
import { ResourcePage, type ResourceSpec } from './ResourcePage.js';

const PIXEL_TYPES = [
  'tagmanagerpixel', 'analyticspixel', 'socialnetworkpixel', 'adspixel', 'professionalnetworkpixel', 'microblogpixel',
  'retargetingpixel', 'questionsitepixel', 'pinboard', 'searchengine', 'chatapp', 'forum', 'shortvideo',
] as const;

const campaigns: ResourceSpec<Campaign> = {
  title: 'Campaigns', noun: 'campaign', list: '/campaigns', item: 'campaign', collection: 'campaigns', name: (c) => c.name,
  fields: [
    { name: 'name', label: 'Name' },
    { name: 'slug', label: 'Rotator slug', hint: 'Its rotator address sends each visitor to one of its links in turn.' },
    { name: 'public', label: 'Public list page', type: 'checkbox' },
  ],
  columns: [
    { label: 'Name', cell: (c) => c.name },
    { label: 'Rotator', cell: (c) => (c.rotator ? <><a href={c.rotator}>{c.rotator}</a> <CopyButton text={c.rotator} /></> : <span className="muted">none</span>) },
    { label: 'List', cell: (c) => <a href={c.list}>{c.public ? 'public list' : 'list (private)'}</a> },
  ],
};

const channels: ResourceSpec<Channel> = {
  title: 'Channels', noun: 'channel', list: '/channels', item: 'channel', collection: 'channels', name: (c) => c.name,
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'description', label: 'Description' },
    { name: 'color', label: 'Colour', type: 'color' },
    { name: 'starred', label: 'Starred', type: 'checkbox' },
  ],
  columns: [
    { label: 'Name', cell: (c) => <><span style={{ color: c.color || undefined }} aria-hidden="true">●</span> {c.starred ? '★ ' : ''}{c.name}</> },
    { label: 'Description', cell: (c) => c.description },
  ],
};

const domains: ResourceSpec<Domain> = {
  title: 'Branded domains', noun: 'domain', list: '/domains', item: 'domain', collection: 'domains', name: (d) => d.domain,
  intro: <p className="note">Point the domain at this server first (an A/AAAA record to its address, or a CNAME to its host name), then add it here with its scheme, e.g. <code>https://go.example.com</code>.</p>,
  fields: [
    { name: 'domain', label: 'Domain', type: 'url', required: true },
    { name: 'redirectroot', label: 'Root goes to', type: 'url' },
    { name: 'redirect404', label: 'Unknown alias goes to', type: 'url' },
  ],
  columns: [
    { label: 'Domain', cell: (d) => d.domain },
    { label: 'Root', cell: (d) => d.redirectroot || <span className="muted">landing page</span> },
    { label: 'Unknown alias', cell: (d) => d.redirect404 || <span className="muted">404 page</span> },
  ],
};

const pixels: ResourceSpec<Pixel> = {
  title: 'Pixels', noun: 'pixel', list: '/pixels', item: 'pixel', collection: 'pixels', name: (p) => p.name,
  fields: [
    { name: 'type', label: 'Type', type: 'select', options: PIXEL_TYPES },
    { name: 'name', label: 'Name', required: true },
    { name: 'tag', label: 'Tag or id', required: true, hint: 'The provider’s id: letters, digits, _ . : -' },
  ],
  columns: [
    { label: 'Name', cell: (p) => p.name },
    { label: 'Type', cell: (p) => p.type },
    { label: 'Tag', cell: (p) => <code>{p.tag}</code> },
    { label: 'Added', cell: (p) => formatDate(p.date) },
  ],
};

export const CampaignsPage = () => <ResourcePage spec={campaigns} />;
export const ChannelsPage = () => <ResourcePage spec={channels} />;
export const DomainsPage = () => <ResourcePage spec={domains} />;
export const PixelsPage = () => <ResourcePage spec={pixels} />;
