import { useState } from 'react';
import { NumberInput } from '@mantine/core';

interface InlineNumberInputProps {
  value: number;
  label: string;
  /** clamps the saved value (weight ≥ 0) */
  min?: number;
  onSave: (value: number) => void;
}

/**
 * A list cell edited in place: saved on blur or Enter when changed. An emptied input is ignored and shows the
 * stored value again.
 */
export function InlineNumberInput({ value, label, min, onSave }: InlineNumberInputProps) {
  const [text, setText] = useState<string | number>(value);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // the stored value changed (saved, refetched): show it
    setShown(value);
    setText(value);
  }

  const commit = () => {
    if (text === '' || !Number.isFinite(Number(text))) {
      setText(value);
      return;
    }
    const next = Math.max(min ?? Number.MIN_SAFE_INTEGER, Math.trunc(Number(text)));
    setText(next);
    if (next !== value) onSave(next);
  };

  return (
    <NumberInput
      aria-label={label}
      value={text}
      onChange={setText}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur();
      }}
      allowDecimal={false}
      allowNegative={min === undefined || min < 0}
      min={min}
      size="xs"
      w={84}
      hideControls
    />
  );
}
