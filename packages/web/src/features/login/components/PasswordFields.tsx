/**
 * The one password field of the login forms: a required password input with its show/hide
 * button, and the pair a new password is set with (typed twice, with its length rule as the
 * hint). The rules themselves are core's (`@subshare/core/validation`); the hint reads the same
 * `LIMITS`, so the form never states a length the server does not check.
 */
import { LIMITS } from '@subshare/core/validation';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';

interface PasswordFieldProps {
  name: string;
  label: string;
  testId: string;
  /** `current-password` to log in, `new-password` where one is set (password managers offer one). */
  autoComplete: 'current-password' | 'new-password';
  helperText?: string;
  autoFocus?: boolean;
}

/** A required password input with the shell's "Show password" / "Hide password" button. */
export function PasswordField(props: PasswordFieldProps) {
  const t = useT();
  return <FormField {...props} type="password" required passwordToggle={{ show: t('form.showPassword'), hide: t('form.hidePassword') }} />;
}

interface NewPasswordFieldsProps {
  /** Test ids are `<prefix>-password` and `<prefix>-confirm-password`. */
  testIdPrefix: string;
  /** The first field's label ("Password", "New password"). */
  label: string;
  /** The length rule the schema checks; the hint says it. */
  limits?: { min: number; max: number };
  autoFocus?: boolean;
}

/**
 * `password` and `confirmPassword`: a new password typed twice, for the schemas that end in
 * core's `passwordConfirmation`.
 */
export function NewPasswordFields({ testIdPrefix, label, limits = LIMITS.userPassword, autoFocus }: NewPasswordFieldsProps) {
  const t = useT();
  return (
    <>
      <PasswordField
        name="password"
        label={label}
        testId={`${testIdPrefix}-password`}
        autoComplete="new-password"
        helperText={t('form.passwordHint', limits)}
        autoFocus={autoFocus}
      />
      <PasswordField name="confirmPassword" label={t('login.confirmPassword')} testId={`${testIdPrefix}-confirm-password`} autoComplete="new-password" />
    </>
  );
}
