import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { ConfirmButton } from '../../lib/ConfirmButton.js';
import { CopyButton } from '../../lib/CopyButton.js';
import type { LinkEntry } from '../../lib/types.js';
import { ErrorNote, formatDate, formatNumber, Loading, PageTitle, Pagination } from '../../lib/ui.js';
import { deleteLink, linkKeys, listLinks, type LinkQuery } from './api.js';

/** The links table: search as you type (after a pause), sort by date or clicks, pages of 20. */
export default function LinksPage() {
  const [text, setText] = useState('');
  const [query, setQuery] = useState<LinkQuery>({ page: 1, limit: 20, order: 'date', q: '' });
  useEffect(() => {
    const timer = setTimeout(() => setQuery((q) => (q.q === text.trim() ? q : { ...q, q: text.trim(), page: 1 })), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({ queryKey: linkKeys.list(query), queryFn: () => listLinks(query), placeholderData: keepPreviousData });
  return (
    <>
      <PageTitle title="Links"><Link href="/links/new" className="button">New link</Link></PageTitle>
      <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="search">Search</label>
          <input id="search" type="search" placeholder="Alias, address or title" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="order">Sort by</label>
          <select id="order" value={query.order} onChange={(e) => setQuery({ ...query, order: e.target.value as LinkQuery['order'], page: 1 })}>
            <option value="date">Newest first</option>
            <option value="click">Most clicked first</option>
          </select>
        </div>
      </form>
      <ErrorNote error={list.error} />
      {list.isPending && <Loading />}
      {list.data && (
        <>
          <p className="muted" aria-live="polite">{formatNumber(list.data.result)} {list.data.result === 1 ? 'link' : 'links'}{query.q && ` matching “${query.q}”`}</p>
          {list.data.urls.length > 0 && <LinksTable links={list.data.urls} />}
          <Pagination page={list.data.currentpage} maxpage={list.data.maxpage} onPage={(page) => setQuery({ ...query, page })} />
        </>
      )}
    </>
  );
}

function LinksTable({ links }: { links: LinkEntry[] }) {
  const client = useQueryClient();
  const remove = useMutation({ mutationFn: deleteLink, onSuccess: () => client.invalidateQueries({ queryKey: linkKeys.all }) });
  return (
    <>
      <ErrorNote error={remove.error} />
      <div className="table-wrap">
        <table className="links">
          <thead>
            <tr><th scope="col">Short link</th><th scope="col">Destination</th><th scope="col" className="num">Clicks</th><th scope="col">Created</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
          </thead>
          <tbody>
            {links.map((link) => (
              <tr key={link.id}>
                <td>
                  <Link href={`/links/${link.id}`} className="strong">{link.shorturl.replace(/^https?:\/\//, '')}</Link>{' '}
                  <CopyButton text={link.shorturl} />
                  {link.title && <div className="muted small">{link.title}</div>}
                </td>
                <td className="url" title={link.longurl}>{link.longurl}</td>
                <td className="num">{formatNumber(link.clicks)}</td>
                <td>{formatDate(link.date)}</td>
                <td className="row-actions">
                  <Link href={`/links/${link.id}/edit`} className="button small secondary" aria-label={`Edit ${link.alias}`}>Edit</Link>
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
