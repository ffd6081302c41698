import type { Domain, Pixel } from '../../lib/types.js';
import { formatDate } from '../../lib/ui.js';
import { PIXEL_TYPE_OPTIONS, PixelTypeName } from './pixelTypes.js';
import { ResourcePage, type ResourceSpec } from './ResourcePage.js';

const domains: ResourceSpec<Domain> = {
  title: 'Branded domains',
  noun: 'domain',
  list: '/domains',
  item: 'domain',
  collection: 'domains',
  name: (d) => d.domain,
  intro: (
    <p className="note">
      Point the domain at this server first (an A/AAAA record to its address, or a CNAME to its host name), then add it here with its scheme, e.g.{' '}
      <code>https://go.example.com</code>.
    </p>
  ),
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
  title: 'Pixels',
  noun: 'pixel',
  list: '/pixels',
  item: 'pixel',
  collection: 'pixels',
  name: (p) => p.name,
  fields: [
    { name: 'type', label: 'Provider', type: 'select', options: PIXEL_TYPE_OPTIONS, hint: 'The API’s type value is in brackets.' },
    { name: 'name', label: 'Name', required: true },
    { name: 'tag', label: 'Tag or id', required: true, hint: 'The provider’s id: letters, digits, _ . : -' },
  ],
  columns: [
    { label: 'Name', cell: (p) => p.name },
    { label: 'Provider', cell: (p) => <PixelTypeName value={p.type} /> },
    { label: 'Tag', cell: (p) => <code>{p.tag}</code> },
    { label: 'Added', cell: (p) => formatDate(p.date) },
  ],
};

export const DomainsPage = () => <ResourcePage spec={domains} />;
export const PixelsPage = () => <ResourcePage spec={pixels} />;
