import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'wouter';

/** What to do next on an empty list: a route to open (`href`) or a field of this page to focus (`focus`, an element id). */
export type EmptyAction = { label: string; href: string } | { label: string; focus: string } | { label: string; onClick(): void };

function Action({ action }: { action: EmptyAction }) {
  if ('href' in action)
    return (
      <Link href={action.href} className="button">
        {action.label}
      </Link>
    );
  const run = (event: MouseEvent) => {
    event.preventDefault();
    if ('focus' in action) document.getElementById(action.focus)?.focus();
    else action.onClick();
  };
  return 'focus' in action ? (
    <a href={`#${action.focus}`} className="button" onClick={run}>
      {action.label}
    </a>
  ) : (
    <button type="button" className="secondary" onClick={run}>
      {action.label}
    </button>
  );
}

/** An empty list says so, says what the list is for, and offers the next step rather than a blank table. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: EmptyAction }) {
  return (
    <section className="empty-state" aria-label={title}>
      <svg className="empty-icon" viewBox="0 0 24 24" width="40" height="40" aria-hidden="true" focusable="false">
        <rect x="3" y="5" width="18" height="14" rx="2" fill="none" stroke="currentColor" strokeWidth="1.5" />
        <path d="M3 10h18M8 14h5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" />
      </svg>
      <p className="empty-title">{title}</p>
      {children && <p className="muted">{children}</p>}
      {action && <Action action={action} />}
    </section>
  );
}
