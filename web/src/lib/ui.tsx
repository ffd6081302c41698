import { useEffect, useRef, type ReactNode } from 'react';
import { errorText } from './api.js';

/** The page's heading and document title; focused on arrival so keyboard and screen-reader users start there. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Redirectory`;
    ref.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div className="page-head">
      <h1 ref={ref} tabIndex={-1}>
        {title}
      </h1>
      {children && <div className="actions">{children}</div>}
    </div>
  );
}

/**
 * A placeholder of grey lines where content is coming, announced as `label` (which starts with "Loading": the
 * browser tests' settle() waits for every such status to go).
 */
export function Loading({ label = 'Loading…', lines = 3 }: { label?: string; lines?: number }) {
  return (
    <div className="skeleton" role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton-line" aria-hidden="true" />
      ))}
    </div>
  );
}

/** A failure the person can act on: the API's own message. */
export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export function Pagination({ page, maxpage, onPage }: { page: number; maxpage: number; onPage(page: number): void }) {
  if (maxpage <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {maxpage}
      </span>
      <button type="button" disabled={page >= maxpage} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** A labelled form field; `hint` is tied to the input with aria-describedby. */
export function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}

/** The viewer's own locale (the browser's language) for every number and date the dashboard shows. */
const LOCALE = undefined;

export function formatNumber(value: number | string): string {
  return Number(value).toLocaleString(LOCALE);
}

/** `click` or `clicks` as the count asks, for the words beside a formatted number. */
export const plural = (count: number | string, one: string, many = `${one}s`) => (Number(count) === 1 ? one : many);

const DAY = { year: 'numeric', month: 'short', day: 'numeric' } as const;
/** The one format of a moment: the date as DAY, then the time to the second on a 24-hour clock. */
export const DATE_TIME = { ...DAY, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' } as const;

/** API timestamps are UTC `YYYY-MM-DD HH:MM:SS`; shown as a date in the person's locale. */
export function formatDate(value: string | null | undefined): string {
  return formatTimestamp(value, (date) => date.toLocaleDateString(LOCALE, DAY));
}

/** A UTC `YYYY-MM-DD HH:MM:SS` timestamp as a date and time to the second in the person's time zone. */
export function formatDateTime(value: string | null | undefined): string {
  return formatTimestamp(value, (date) => date.toLocaleString(LOCALE, DATE_TIME));
}

function formatTimestamp(value: string | null | undefined, format: (date: Date) => string): string {
  if (!value) return '—';
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? value : format(date);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 31_536_000],
  ['month', 2_592_000],
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** A UTC `YYYY-MM-DD HH:MM:SS` timestamp relative to now, in words: "3 minutes ago", "yesterday", "in 2 weeks". */
export function formatRelative(value: string, now = Date.now()): string {
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  if (Number.isNaN(date.getTime())) return value;
  const seconds = Math.round((date.getTime() - now) / 1000);
  const words = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' });
  for (const [unit, size] of UNITS) if (Math.abs(seconds) >= size) return words.format(Math.trunc(seconds / size), unit);
  return Math.abs(seconds) < 45 ? 'just now' : words.format(Math.sign(seconds), 'minute');
}

/**
 * A moment as people read it, relative ("2 hours ago") and, beneath it, exact in their time zone; `never` when
 * there is none. `date` shows the day only, for moments whose time of day says little.
 */
export function When({ value, never = 'never', date = false }: { value: string | null | undefined; never?: string; date?: boolean }) {
  if (!value) return <span className="muted">{never}</span>;
  return (
    <time className="when" dateTime={`${value.replace(' ', 'T')}Z`}>
      {formatRelative(value)} <span className="muted small">{date ? formatDate(value) : formatDateTime(value)}</span>
    </time>
  );
}
