import { NumberInput, PasswordInput, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { OptionForm } from './use-option-form';

interface OptionFieldProps {
  form: OptionForm;
  optionKey: string;
  label: string;
  description?: string;
  placeholder?: string;
}

export function OptionTextInput({ form, optionKey, ...props }: OptionFieldProps) {
  return (
    <TextInput
      {...props}
      value={form.values[optionKey] ?? ''}
      onChange={(event) => form.setValue(optionKey, event.currentTarget.value)}
      error={form.errors[optionKey]}
    />
  );
}

/** A write-only option: the saved value is never shown; typing a new one replaces it on save. */
export function OptionSecretInput({ form, optionKey, ...props }: OptionFieldProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...props}
      placeholder={props.placeholder ?? t('settings.secretPlaceholder')}
      autoComplete="new-password"
      value={form.values[optionKey] ?? ''}
      onChange={(event) => form.setValue(optionKey, event.currentTarget.value)}
      error={form.errors[optionKey]}
    />
  );
}

export function OptionNumberInput({
  form,
  optionKey,
  step = 1,
  ...props
}: OptionFieldProps & { step?: number }) {
  return (
    <NumberInput
      {...props}
      min={0}
      step={step}
      allowNegative={false}
      allowDecimal={step < 1}
      value={form.values[optionKey] ?? ''}
      onChange={(value) => form.setValue(optionKey, String(value))}
      error={form.errors[optionKey]}
    />
  );
}

export function OptionTextarea({
  form,
  optionKey,
  monospace,
  ...props
}: OptionFieldProps & { monospace?: boolean }) {
  return (
    <Textarea
      {...props}
      autosize
      minRows={3}
      maxRows={16}
      styles={monospace ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      value={form.values[optionKey] ?? ''}
      onChange={(event) => form.setValue(optionKey, event.currentTarget.value)}
      error={form.errors[optionKey]}
    />
  );
}
