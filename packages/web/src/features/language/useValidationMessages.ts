import { useMemo } from 'react';
import type { ValidationMessages } from '@subshare/core/validation';
import { useT } from './useT';

/**
 * The form messages of spec section 5 (required, e-mail, min and max length, not same) in the
 * interface language, for the validation schemas shared with the server.
 */
export function useValidationMessages(): ValidationMessages {
  const t = useT();
  return useMemo(
    () => ({
      required: t('form.required'),
      email: t('form.email'),
      minLength: (min: number) => t('form.minLength', { min }),
      maxLength: (max: number) => t('form.maxLength', { max }),
      notSame: t('form.notSame'),
    }),
    [t],
  );
}
