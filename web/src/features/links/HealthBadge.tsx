import type { LinkEntry } from '../../lib/types.js';
import { formatDateTime as formatDate } from '../../lib/ui.js';
import './HealthBadge.css';

type Health = LinkEntry['health'];

const LABELS: Record<Health['status'], string> = { ok: 'Working', broken: 'Broken', unreachable: 'Unreachable', unknown: 'Not checked' };

/** What the last check of the destination found; nothing until a first check. */
export function HealthBadge({ health }: { health: Health }) {
  if (health.status === 'unknown') return null;
  const code = health.status === 'broken' && health.code ? ` (${health.code})` : '';
  return (
    <span className={`health-badge health-${health.status}`} title={health.checked ? `Checked ${formatDate(health.checked)}` : undefined}>
      {LABELS[health.status]}
      {code}
    </span>
  );
}

/** The health filter's choices, as GET /api/urls?health= takes them. */
export const HEALTH_CHOICES: Array<{ value: Health['status']; label: string }> = [
  { value: 'broken', label: 'Broken' },
  { value: 'unreachable', label: 'Unreachable' },
  { value: 'ok', label: 'Working' },
  { value: 'unknown', label: 'Not checked' },
];
