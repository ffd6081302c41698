import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { linkKeys, listLinks, type LinkQuery } from '../features/links/api.js';
import { Modal } from './Modal.js';
import { NAV_PAGES } from './nav.js';
import './CommandPalette.css';

interface Choice {
  key: string;
  kind: 'Page' | 'Link';
  label: string;
  detail?: string;
  href: string;
}

// Creating is a page too: "new" in the palette finds both forms.
const PAGES = [...NAV_PAGES, { href: '/links/new', label: 'New link' }, { href: '/qr/new', label: 'New QR code' }];

/** Text typed settles for a moment before it asks the server, so each key does not cost a request. */
function useSettled(text: string, delay = 200): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), delay);
    return () => clearTimeout(timer);
  }, [text, delay]);
  return settled;
}

/**
 * ⌘K / Ctrl K: a search box over the dashboard's pages and the account's links (by alias or title, through
 * GET /api/urls?q=). An ARIA combobox: arrow keys move through the list, Enter opens, Escape closes.
 */
export function CommandPalette({ onClose }: { onClose: () => void }) {
  const [, navigate] = useLocation();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const id = useId();
  const q = useSettled(text.trim());
  const query: LinkQuery = { page: 1, limit: 8, order: 'date', q };
  const links = useQuery({ queryKey: linkKeys.list(query), queryFn: () => listLinks(query), enabled: q !== '' });
  const needle = text.trim().toLowerCase();
  const choices: Choice[] = [
    ...PAGES.filter((page) => page.label.toLowerCase().includes(needle)).map((page) => ({ key: page.href, kind: 'Page' as const, ...page })),
    ...(q === '' ? [] : (links.data?.urls ?? [])).map((link) => ({
      key: `link-${link.id}`,
      kind: 'Link' as const,
      label: link.alias,
      detail: link.title || link.longurl,
      href: `/links/${link.id}`,
    })),
  ];
  const at = Math.min(active, choices.length - 1);
  useEffect(() => setActive(0), [text]);
  // A block body: Chromium's scrollIntoView now returns a promise, which React would take for a cleanup.
  useEffect(() => {
    void list.current?.querySelector('[aria-selected=true]')?.scrollIntoView({ block: 'nearest' });
  }, [at]);
  function go(choice: Choice | undefined) {
    if (!choice) return;
    onClose();
    navigate(choice.href);
  }
  function keys(event: KeyboardEvent) {
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: choices.length - 1 };
    if (event.key in moves && choices.length > 0) {
      event.preventDefault();
      setActive((moves[event.key]! + choices.length) % choices.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      go(choices[at]);
    }
  }
  const searching = q !== needle || links.isFetching;
  return (
    <Modal label="Jump to a page or link" className="palette" onClose={onClose}>
      <input
        type="text"
        role="combobox"
        aria-label="Jump to a page or link"
        aria-expanded={choices.length > 0}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={choices.length > 0 ? `${id}-${at}` : undefined}
        placeholder="Jump to a page, or a link by alias or title"
        autoComplete="off"
        spellCheck={false}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={keys}
      />
      {choices.length > 0 && (
        <ul id={`${id}-list`} role="listbox" aria-label="Pages and links" ref={list}>
          {choices.map((choice, index) => (
            <li
              key={choice.key}
              id={`${id}-${index}`}
              role="option"
              aria-selected={index === at}
              onClick={() => go(choice)}
              onPointerMove={() => setActive(index)}
            >
              <span className="palette-kind">{choice.kind}</span>
              <span className="palette-label">{choice.label}</span>
              {choice.detail && <span className="palette-detail">{choice.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="palette-status small muted" role="status">
        {searching && needle !== '' ? 'Searching links…' : choices.length === 0 ? 'Nothing matches.' : `${choices.length} results`}
      </p>
    </Modal>
  );
}
