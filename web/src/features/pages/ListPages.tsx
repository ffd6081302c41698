import { Link } from 'wouter';
import { CopyButton } from '../../lib/CopyButton.js';
import type { Bio, Overlay, Splash } from '../../lib/types.js';
import { formatDate } from '../../lib/ui.js';
import { ResourcePage, type ResourceSpec } from '../resources/ResourcePage.js';
import { KINDS, type Kind } from './api.js';

/** The list spec of one kind: its name opens the editor, a button makes a new one, each row can be deleted. */
function spec<T extends { id: number; name: string; date: string }>(kind: Kind, columns: ResourceSpec<T>['columns'], intro: string): ResourceSpec<T> {
  const { title, noun, list, item, collection, route } = KINDS[kind];
  return {
    title,
    noun,
    list,
    item,
    collection,
    fields: [],
    name: (p) => p.name,
    create: { href: `${route}/new`, label: `New ${noun}` },
    intro: <p className="muted">{intro}</p>,
    columns: [
      {
        label: 'Name',
        cell: (p) => (
          <Link href={`${route}/${p.id}/edit`} aria-label={`Edit ${p.name}`}>
            {p.name}
          </Link>
        ),
      },
      ...columns,
      { label: 'Added', cell: (p) => formatDate(p.date) },
    ],
  };
}

const splash = spec<Splash>('splash', [], 'Shown for five seconds before the destination of the links you give this type.');
const overlays = spec<Overlay>(
  'overlay',
  [{ label: 'Kind', cell: (o) => o.type }],
  'A message or contact box over the framed destination of the links you give this type.',
);
const bios = spec<Bio>(
  'bio',
  [
    {
      label: 'Address',
      cell: (b) => (
        <>
          <a href={b.url}>{b.url}</a> <CopyButton text={b.url} />
        </>
      ),
    },
  ],
  'A page of links at its own short address.',
);

export const SplashListPage = () => <ResourcePage spec={splash} />;
export const OverlayListPage = () => <ResourcePage spec={overlays} />;
export const BioListPage = () => <ResourcePage spec={bios} />;
