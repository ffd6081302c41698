import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { EmptyState } from '../../lib/EmptyState.js';
import { ErrorNote, formatNumber, Loading, PageTitle, Pagination } from '../../lib/ui.js';
import { CHOICES_KEY, linkChoices, linkKeys, listLinks } from './api.js';
import { BulkActions } from './BulkActions.js';
import { HEALTH_CHOICES } from './HealthBadge.js';
import { LinkFilters } from './LinkFilters.js';
import { TagFilters } from './LinkTags.js';
import { LinksTable } from './LinksTable.js';
import { SelectMatching } from './SelectMatching.js';
import { FILTERS, useLinkQuery } from './useLinkQuery.js';

/**
 * The links table: search as you type (after a pause), sort by date or clicks, filter by campaign, channel and
 * domain, pages of 20, all kept in the address; rows can be selected for the bulk actions.
 */
export default function LinksPage() {
  const [query, update] = useLinkQuery();
  const [text, setText] = useState(query.q);
  // Only typing starts a search: the text the address brought is the query already, so arriving keeps its page.
  useEffect(() => {
    if (text.trim() === query.q) return undefined;
    const timer = setTimeout(() => update({ q: text.trim() }), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const list = useQuery({ queryKey: linkKeys.list(query), queryFn: () => listLinks(query), placeholderData: keepPreviousData });
  const choices = useQuery({ queryKey: CHOICES_KEY, queryFn: linkChoices });
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const shown = list.data?.urls ?? [];
  // A selection is of the rows on screen: another page, search or filter starts afresh.
  const listed = shown.map((link) => link.id).join();
  useEffect(() => {
    setSelected(new Set());
    setAllMatching(false);
  }, [listed]);
  const select = (ids: number[], on: boolean) => {
    setAllMatching(false);
    const next = new Set(selected);
    for (const id of ids)
      if (on) next.add(id);
      else next.delete(id);
    setSelected(next);
  };
  const filtered = FILTERS.some((name) => query[name]) || (query.tag ?? []).length > 0 || Boolean(query.health);
  return (
    <>
      <PageTitle title="Links">
        <Link href="/links/new" className="button">
          New link
        </Link>
      </PageTitle>
      <form className="toolbar" role="search" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="search">Search</label>
          <input id="search" type="search" placeholder="Alias, address or title" value={text} onChange={(e) => setText(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="order">Sort by</label>
          <select id="order" value={query.order} onChange={(e) => update({ order: e.target.value === 'click' ? 'click' : 'date' })}>
            <option value="date">Newest first</option>
            <option value="click">Most clicked first</option>
          </select>
        </div>
        <LinkFilters query={query} choices={choices.data} onChange={update} />
        <div className="field">
          <label htmlFor="filter-health">Health</label>
          <select id="filter-health" value={query.health ?? ''} onChange={(e) => update({ health: e.target.value })}>
            <option value="">Any health</option>
            {HEALTH_CHOICES.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button type="button" className="secondary clear" onClick={() => update({ campaign: '', channel: '', domain: '', tag: [], health: '' })}>
            Clear filters
          </button>
        )}
      </form>
      <TagFilters />
      <ErrorNote error={list.error ?? choices.error} />
      {list.isPending && <Loading />}
      {list.data && (
        <>
          <p className="muted" aria-live="polite">
            {formatNumber(list.data.result)} {list.data.result === 1 ? 'link' : 'links'}
            {query.q && ` matching “${query.q}”`}
            {filtered && ' (filtered)'}
          </p>
          {shown.length > 0 && shown.every((link) => selected.has(link.id)) && (
            <SelectMatching shown={shown.length} total={list.data.result} all={allMatching} onChange={setAllMatching} />
          )}
          <BulkActions
            selected={shown.filter((link) => selected.has(link.id))}
            matching={allMatching ? { count: list.data.result, query } : undefined}
            choices={choices.data}
            onDone={() => setSelected(new Set())}
          />
          {shown.length > 0 && <LinksTable links={shown} selected={selected} onSelect={select} />}
          {list.data.result === 0 &&
            (query.q || filtered ? (
              <EmptyState
                title="No links match"
                action={{
                  label: 'Clear search and filters',
                  onClick: () => {
                    setText('');
                    update({ q: '', campaign: '', channel: '', domain: '', health: '' });
                  },
                }}
              >
                Nothing matches this search and these filters. Try other words, or clear them to see every link.
              </EmptyState>
            ) : (
              <EmptyState title="No links yet" action={{ label: 'Create a link', href: '/links/new' }}>
                Shorten a long address into a link you can share, track and change later. Your links and their clicks are listed here.
              </EmptyState>
            ))}
          <Pagination page={list.data.currentpage} maxpage={list.data.maxpage} onPage={(page) => update({ page })} />
        </>
      )}
    </>
  );
}
