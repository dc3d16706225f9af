import type { TFunction } from 'i18next';
import type { FieldError } from 'react-hook-form';

/** Form schemas carry i18n keys as their messages; this turns a field's error into the text to show. */
export function translateError(t: TFunction, error: FieldError | undefined): string | undefined {
  return error?.message ? t(error.message) : undefined;
}
