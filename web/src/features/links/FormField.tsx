import { cloneElement, createContext, useContext, type ReactElement, type ReactNode } from 'react';
import type { FieldErrors } from './checks.js';

/** The form's current errors, by input id, so every field can show its own beside it. */
export const ErrorsContext = createContext<FieldErrors>({});

interface Described {
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

/** The aria attributes of an input: invalid when it has an error, described by its hint, its error and any note. */
export function useDescribed(id: string, hint: boolean, note?: string): Described {
  const error = useContext(ErrorsContext)[id];
  const ids = [hint && `${id}-hint`, error && `${id}-error`, note].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

/** An input's error, where its aria-describedby points. */
export function FieldError({ id }: { id: string }) {
  const error = useContext(ErrorsContext)[id];
  if (!error) return null;
  return (
    <small id={`${id}-error`} className="field-error">
      {error}
    </small>
  );
}

interface FormFieldProps {
  id: string;
  label: string;
  hint?: string;
  /** The id of something more that describes the input (a warning). */
  note?: string;
  className?: string;
  children: ReactElement<Described>;
  after?: ReactNode;
}

/** A labelled field whose one input is given its id's error state and descriptions. */
export function FormField({ id, label, hint, note, className, children, after }: FormFieldProps) {
  const described = useDescribed(id, Boolean(hint), note);
  return (
    <div className={`field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, described)}
      <FieldError id={id} />
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {after}
    </div>
  );
}
