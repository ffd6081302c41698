import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import type { LinkDetailBody } from '../../lib/types.js';
import { ErrorNote, formatDateTime } from '../../lib/ui.js';
import { linkKeys } from './api.js';
import { HealthBadge } from './HealthBadge.js';

type Details = LinkDetailBody['details'];

/** The link page's health: what the last check found and since when, the fallback, and a check on demand. */
export function HealthRow({ details }: { details: Details }) {
  const client = useQueryClient();
  const check = useMutation({
    mutationFn: () => api.post(`/url/${details.id}/check`),
    onSuccess: () => client.invalidateQueries({ queryKey: linkKeys.all }),
  });
  const { health } = details;
  if (!details.healthcheck) return <>Not checked: checks are off for this link</>;
  return (
    <>
      {health.status === 'unknown' ? (
        'Not checked yet'
      ) : (
        <>
          <HealthBadge health={health} /> since {formatDateTime(health.since)}, last checked {formatDateTime(health.checked)}
        </>
      )}
      {details.fallbackurl && <div className="muted small">While broken, visitors go to {details.fallbackurl}</div>}
      <div>
        <button type="button" className="small secondary" disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? 'Checking…' : 'Check now'}
        </button>
      </div>
      <ErrorNote error={check.error} />
    </>
  );
}
