import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { showError, showSuccess } from '../../api/toast';
import { refreshAfterOptionSave, saveOption, type OptionValues } from './options-queries';

export interface OptionFormSettings {
  /** write-only options: shown blank, saved only when something was typed */
  secrets?: readonly string[];
  /** saved only when non-empty and changed (the SMTP port and the secrets: an empty field keeps the stored value) */
  skipWhenBlank?: readonly string[];
  /** turns the edited text into the value to send, or answers an error message (shown on the field) */
  prepare?: Partial<Record<string, (value: string) => { value: string } | { error: string }>>;
}

export interface OptionForm {
  values: OptionValues;
  errors: Record<string, string>;
  setValue: (key: string, value: string) => void;
  isDirty: boolean;
  isSaving: boolean;
  save: () => Promise<void>;
}

function initialValues(
  keys: readonly string[],
  saved: OptionValues,
  secrets: readonly string[],
): OptionValues {
  return Object.fromEntries(keys.map((key) => [key, secrets.includes(key) ? '' : (saved[key] ?? '')]));
}

/**
 * A group of option fields saved with one button: only changed fields are sent, one PUT each, and a field the
 * server refuses shows the server's message under it while the others are saved.
 */
export function useOptionForm(
  keys: readonly string[],
  saved: OptionValues,
  settings: OptionFormSettings = {},
): OptionForm {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const secrets = settings.secrets ?? [];
  const [values, setValues] = useState(() => initialValues(keys, saved, secrets));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [isSaving, setIsSaving] = useState(false);

  // Fresh server values replace the fields (after a save, or a change made in another tab).
  const savedSignature = keys.map((key) => saved[key] ?? '').join('\u0000');
  useEffect(() => {
    setValues(initialValues(keys, saved, secrets));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the signature stands for `saved[keys]`
  }, [savedSignature]);

  const changedKeys = keys.filter((key) => {
    const value = values[key] ?? '';
    if (secrets.includes(key) || settings.skipWhenBlank?.includes(key)) {
      if (value.trim() === '') return false;
    }
    return secrets.includes(key) || value !== (saved[key] ?? '');
  });

  const save = async () => {
    setIsSaving(true);
    const nextErrors: Record<string, string> = {};
    let savedCount = 0;
    for (const key of changedKeys) {
      const prepared = settings.prepare?.[key]?.(values[key] ?? '') ?? { value: values[key] ?? '' };
      if ('error' in prepared) {
        nextErrors[key] = prepared.error;
        showError(prepared.error);
        continue;
      }
      try {
        await saveOption(key, prepared.value);
        savedCount += 1;
        // The field shows what was stored; a saved secret is never shown again, so it goes back to blank.
        const shown = secrets.includes(key) ? '' : prepared.value;
        setValues((current) => ({ ...current, [key]: shown }));
      } catch (error) {
        nextErrors[key] = error instanceof ApiError ? error.message : String(error);
      }
    }
    setErrors(nextErrors);
    setIsSaving(false);
    if (savedCount > 0) {
      await refreshAfterOptionSave(queryClient);
      if (Object.keys(nextErrors).length === 0) showSuccess(t('settings.saved'));
    }
  };

  return {
    values,
    errors,
    setValue: (key, value) => {
      setValues((current) => ({ ...current, [key]: value }));
      setErrors((current) => {
        const next = { ...current };
        delete next[key];
        return next;
      });
    },
    isDirty: changedKeys.length > 0,
    isSaving,
    save,
  };
}
