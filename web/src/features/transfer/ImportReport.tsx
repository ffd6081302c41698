import type { ImportJob } from '../../lib/types.js';
import { formatNumber } from '../../lib/ui.js';

const STATUS: Record<string, string> = { running: 'Importing', finished: 'Finished', failed: 'Stopped' };

/** Where an import job is: its counts while it runs, then each failed row with its reason. */
export function ImportReport({ job }: { job: ImportJob }) {
  const of = job.total === null ? '' : ` of ${formatNumber(job.total)} rows`;
  return (
    <section className="panel" aria-labelledby="job-h">
      <h2 id="job-h">
        Import {job.id} <span className="muted small">({job.format} format)</span>
      </h2>
      <p role="status" data-testid="import-status">
        <strong>{STATUS[job.status] ?? job.status}</strong>: {formatNumber(job.done)} imported, {formatNumber(job.failed)} failed{of}.
      </p>
      {job.status === 'running' && (
        <progress className="progress" max={job.total ?? undefined} value={job.done + job.failed} aria-label="Rows read" />
      )}
      {job.message && <p className="error">{job.message}</p>}
      {job.errors.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Failed rows</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Row
                </th>
                <th scope="col">Code</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {job.errors.map((e) => (
                <tr key={e.row}>
                  <td className="num">{e.row}</td>
                  <td>
                    <code>{e.code}</code>
                  </td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {job.failed > job.errors.length && (
        <p className="muted">The first {formatNumber(job.errors.length)} failed rows are listed; the others are counted.</p>
      )}
    </section>
  );
}
