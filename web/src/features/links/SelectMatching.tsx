import { formatNumber } from '../../lib/ui.js';

interface Props {
  /** Rows on this page (all selected) and links matching the list's query. */
  shown: number;
  total: number;
  all: boolean;
  onChange(all: boolean): void;
}

/** Gmail's banner: once the whole page is selected, offer every matching link; once chosen, offer to go back. */
export function SelectMatching({ shown, total, all, onChange }: Props) {
  if (total <= shown) return null;
  return (
    <p className="select-matching" role="status">
      {all ? (
        <>
          All <strong>{formatNumber(total)}</strong> matching links are selected.{' '}
          <button type="button" className="link" onClick={() => onChange(false)}>
            Select only the {shown} on this page
          </button>
        </>
      ) : (
        <>
          All {shown} links on this page are selected.{' '}
          <button type="button" className="link" onClick={() => onChange(true)}>
            Select all {formatNumber(total)} matching links
          </button>
        </>
      )}
    </p>
  );
}
