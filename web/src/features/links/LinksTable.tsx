import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { CopyButton } from '../../lib/CopyButton.js';
import type { LinkEntry } from '../../lib/types.js';
import { ErrorNote, formatDate, formatNumber } from '../../lib/ui.js';
import { deleteLink, linkKeys } from './api.js';
import { HealthBadge } from './HealthBadge.js';
import { RowTags } from './LinkTags.js';
import { Sparkline, SPARK_DAYS, useSparklines } from './Sparkline.js';

interface Props {
  links: LinkEntry[];
  selected: ReadonlySet<number>;
  onSelect(ids: number[], on: boolean): void;
}

/** "Select all on this page": checked when every row is, mixed when some are. */
function SelectAll({ links, selected, onSelect }: Props) {
  const ref = useRef<HTMLInputElement>(null);
  const count = links.filter((link) => selected.has(link.id)).length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = count > 0 && count < links.length;
  }, [count, links.length]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label="Select all links on this page"
      checked={count === links.length}
      onChange={(e) =>
        onSelect(
          links.map((link) => link.id),
          e.target.checked,
        )
      }
    />
  );
}

export function LinksTable({ links, selected, onSelect }: Props) {
  const client = useQueryClient();
  const remove = useMutation({ mutationFn: deleteLink, onSuccess: () => client.invalidateQueries({ queryKey: linkKeys.all }) });
  const lines = useSparklines(links.map((link) => link.id));
  return (
    <>
      <ErrorNote error={remove.error} />
      <div className="table-wrap">
        <table className="links">
          <thead>
            <tr>
              <th scope="col" className="pick">
                <SelectAll links={links} selected={selected} onSelect={onSelect} />
              </th>
              <th scope="col">Short link</th>
              <th scope="col">Destination</th>
              <th scope="col" className="num">
                Clicks
              </th>
              <th scope="col">Last {SPARK_DAYS} days</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id}>
                <td className="pick">
                  <input
                    type="checkbox"
                    aria-label={`Select ${link.alias}`}
                    checked={selected.has(link.id)}
                    onChange={(e) => onSelect([link.id], e.target.checked)}
                  />
                </td>
                <td>
                  <Link href={`/links/${link.id}`} className="strong">
                    {link.shorturl.replace(/^https?:\/\//, '')}
                  </Link>{' '}
                  <CopyButton text={link.shorturl} /> <HealthBadge health={link.health} />
                  {link.title && <div className="muted small">{link.title}</div>}
                  <RowTags tags={link.tags} />
                </td>
                <td className="url" title={link.longurl}>
                  {link.longurl}
                </td>
                <td className="num">{formatNumber(link.clicks)}</td>
                <td className="spark-cell">
                  <Sparkline values={lines.data?.sparklines[link.id]} />
                </td>
                <td>{formatDate(link.date)}</td>
                <td className="row-actions">
                  <Link href={`/links/${link.id}/edit`} className="button small secondary" aria-label={`Edit ${link.alias}`}>
                    Edit
                  </Link>
                  <ConfirmButton label="Delete" confirm={`Delete ${link.alias}`} busy={remove.isPending} onConfirm={() => remove.mutate(link.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
