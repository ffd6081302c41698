import type { Counts } from '../../lib/types.js';
import { formatNumber } from '../../lib/ui.js';

/** A label → count map (the API's `top…` fields) as a table, largest first, with each row's share. */
export function CountsTable({ title, label, counts, limit = 10 }: { title: string; label: string; counts: Counts; limit?: number }) {
  const rows = Object.entries(counts || {})
    .map(([name, n]) => [name, Number(n)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  return (
    <section className="panel" aria-labelledby={`${title}-h`}>
      <h2 id={`${title}-h`}>{title}</h2>
      {rows.length === 0 ? (
        <p className="muted">Nothing counted yet.</p>
      ) : (
        <table className="counts">
          <thead>
            <tr>
              <th scope="col">{label}</th>
              <th scope="col" className="num">
                Clicks
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, n]) => (
              <tr key={name}>
                <td>
                  <span className="bar" aria-hidden="true">
                    <span style={{ width: `${Math.round((n / total) * 100)}%` }} />
                  </span>
                  {name}
                </td>
                <td className="num">{formatNumber(n)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
