import { useState } from 'react';
import { Button } from './button';
import { inputClass } from './field';

export interface SearchFormProps {
  /** The input's id, for its label. */
  id: string;
  /** Read by screen readers only: what the words are matched against. */
  label: string;
  placeholder: string;
  /** The button's text. */
  submit: string;
  /** What the field holds at first, e.g. the search in the address. */
  initial?: string;
  /** Tailwind width classes for the form. */
  width: string;
  /** Called with the words, trimmed, when the form is sent (Enter or the button). */
  onSearch: (text: string) => void;
}

/** One search field and its button, sent as a whole: the screen searches only when asked. */
export function SearchForm({ id, label, placeholder, submit, initial = '', width, onSearch }: SearchFormProps) {
  const [typed, setTyped] = useState(initial);
  return (
    <form
      role="search"
      className={`flex gap-2 ${width}`}
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(typed.trim());
      }}
    >
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={typed}
        placeholder={placeholder}
        onChange={(event) => setTyped(event.target.value)}
        className={inputClass}
      />
      <Button type="submit">{submit}</Button>
    </form>
  );
}
