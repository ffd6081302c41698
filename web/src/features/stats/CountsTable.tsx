import type { Counts } from '../../lib/types.js';
import { formatNumber } from '../../lib/ui.js';
import './stats.css';

/**
 * A label → count map (the API's `top…` fields) as a table, largest first, with each row's share. Labels that
 * do not fit end in an ellipsis, the whole label in their title; `name` turns a label into words (a language code
 * into its name).
 */
export function CountsTable({
  title,
  label,
  counts,
  limit = 10,
  name = (text) => text,
}: {
  title: string;
  label: string;
  counts: Counts | undefined;
  limit?: number;
  name?(label: string): string;
}) {
  const rows = Object.entries(counts || {})
    .map(([key, n]) => [key, Number(n)] as const)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit);
  const total = rows.reduce((sum, [, n]) => sum + n, 0);
  const id = `${title.replace(/\W+/g, '-').toLowerCase()}-h`;
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
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
            {rows.map(([key, n]) => (
              <tr key={key}>
                <td>
                  <span className="bar" aria-hidden="true">
                    <span style={{ width: `${Math.round((n / total) * 100)}%` }} />
                  </span>
                  <span className="label" title={name(key) === key ? key : `${name(key)} (${key})`}>
                    {name(key)}
                  </span>
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
