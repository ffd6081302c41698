import { useId, useState, type KeyboardEvent } from 'react';
import { countryLabel, countryOfKey, locationOf, searchCountries, type Country } from './countries.js';

interface CountryComboboxProps {
  id: string;
  /** The stored location: a country's lower-case name, or what was typed while no country matches. */
  value: string;
  onChange(value: string): void;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** The text typed, the suggestions it opens and the one marked, reporting the location each change stands for. */
function useCountrySearch(value: string, onChange: (value: string) => void) {
  const [text, setText] = useState(() => countryLabel(value));
  const [seen, setSeen] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // The row may be given another value (a row above removed): show that one.
  if (value !== seen) {
    setSeen(value);
    setText(countryLabel(value));
  }
  const report = (next: string) => {
    setSeen(next);
    onChange(next);
  };
  const type = (next: string) => {
    setText(next);
    setOpen(true);
    setActive(0);
    const exact = countryOfKey(next);
    report(exact && exact.name.toLowerCase() === next.trim().toLowerCase() ? locationOf(exact) : next);
  };
  const pick = (country: Country) => {
    setText(country.name);
    setOpen(false);
    report(locationOf(country));
  };
  return { text, open, setOpen, active, setActive, options: open ? searchCountries(text) : [], type, pick };
}

type Search = ReturnType<typeof useCountrySearch>;

/** Arrows move through the list (opening it), Enter picks the marked country, Escape closes. */
function onKey(event: KeyboardEvent, { open, setOpen, options, active, setActive, pick }: Search) {
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    if (!open) return setOpen(true);
    const step = event.key === 'ArrowDown' ? 1 : -1;
    setActive((i) => (i + step + options.length) % Math.max(options.length, 1));
  } else if (event.key === 'Enter' && open && options[active]) {
    event.preventDefault();
    pick(options[active]);
  } else if (event.key === 'Escape' && open) {
    event.preventDefault();
    setOpen(false);
  }
}

/**
 * A text box that suggests countries as one types (the ARIA combobox pattern): arrows move through the
 * list, Enter or a click picks, Escape closes. Picking stores the name the spec's `location` takes.
 */
export function CountryCombobox({ id, value, onChange, ...aria }: CountryComboboxProps) {
  const listId = useId();
  const search = useCountrySearch(value, onChange);
  const { text, options, active } = search;
  const expanded = options.length > 0;
  return (
    <div className="combo">
      <input
        id={id}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded ? `${listId}-${active}` : undefined}
        autoComplete="off"
        placeholder="Type a country"
        value={text}
        onChange={(e) => search.type(e.target.value)}
        onKeyDown={(e) => onKey(e, search)}
        onBlur={() => search.setOpen(false)}
        {...aria}
      />
      <ul id={listId} role="listbox" aria-label="Countries" hidden={!expanded}>
        {options.map((country, i) => (
          <li
            key={country.code}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            // Keeps the focus in the box, so the click is not lost to its blur.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => search.pick(country)}
          >
            {country.name} <span className="muted small">{country.code}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
