interface ListButtonsProps {
  /** What the item is called in the buttons' names: "rule 2", "rule 1, condition 3". */
  name: string;
  index: number;
  count: number;
  /** Below this many items, Remove is not offered. */
  min?: number;
  onMove(by: number): void;
  onRemove(): void;
}

/** Move up, move down and remove for one item of an ordered list; arrows shown, full names for assistive technology. */
export function ListButtons({ name, index, count, min = 0, onMove, onRemove }: ListButtonsProps) {
  return (
    <div className="list-buttons">
      <button
        type="button"
        className="small secondary"
        aria-label={`Move ${name} up`}
        title="Move up"
        disabled={index === 0}
        onClick={() => onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="small secondary"
        aria-label={`Move ${name} down`}
        title="Move down"
        disabled={index === count - 1}
        onClick={() => onMove(1)}
      >
        ↓
      </button>
      {count > min && (
        <button type="button" className="small secondary" aria-label={`Remove ${name}`} onClick={onRemove}>
          Remove
        </button>
      )}
    </div>
  );
}
