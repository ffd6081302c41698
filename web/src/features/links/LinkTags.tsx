import { Link } from 'wouter';
import '../tags/TagChip.css';
import { useLinkQuery } from './useLinkQuery.js';

/** A row's tags as buttons: each adds its tag to the list's filter (kept in the address with the others). */
export function RowTags({ tags }: { tags: string[] }) {
  const [query, update] = useLinkQuery();
  if (tags.length === 0) return null;
  const current = query.tag ?? [];
  return (
    <ul className="tag-chips" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <button
            type="button"
            className="tag-chip"
            aria-label={`Filter by tag ${tag}`}
            aria-pressed={current.includes(tag)}
            onClick={() => update({ tag: current.includes(tag) ? current : [...current, tag] })}
          >
            {tag}
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The tags the list is filtered by, each removable; and the way to the tags' own page. */
export function TagFilters() {
  const [query, update] = useLinkQuery();
  const current = query.tag ?? [];
  return (
    <div className="tag-filters">
      {current.length > 0 && (
        <ul className="tag-chips" aria-label="Tag filters">
          {current.map((tag) => (
            <li key={tag}>
              <button
                type="button"
                className="tag-chip"
                aria-label={`Remove tag filter ${tag}`}
                onClick={() => update({ tag: current.filter((t) => t !== tag) })}
              >
                Tag: {tag} <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <Link href="/tags" className="small">
        Manage tags
      </Link>
    </div>
  );
}
