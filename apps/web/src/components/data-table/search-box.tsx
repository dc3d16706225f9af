import { useEffect, useState } from 'react';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface SearchBoxProps {
  value: string;
  onSearch: (keyword: string) => void;
  placeholder: string;
}

/** Searches on Enter (and when cleared); the text is trimmed. */
export function SearchBox({ value, onSearch, placeholder }: SearchBoxProps) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <TextInput
      leftSection={<IconSearch size={16} />}
      placeholder={placeholder}
      aria-label={placeholder}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        if (event.currentTarget.value === '') onSearch('');
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onSearch(text.trim());
      }}
      mb="md"
    />
  );
}
