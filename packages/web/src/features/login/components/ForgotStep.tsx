import { Text } from '@chakra-ui/react';
import { forgotPasswordSchema } from '@subshare/core/validation';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { FormField } from '../../../components/ui/FormField';
import { useT } from '../../language/useT';
import { selectLoginEmail } from '../selectors';
import { resetCodeRequested, stepShown } from '../slice';
import { FormStep, StepLink } from './FormStep';

/** "Forgot password?", step 1: the e-mail the reset code goes to (the one typed at login, editable). */
export function ForgotStep() {
  const t = useT();
  const dispatch = useAppDispatch();
  const email = useAppSelector(selectLoginEmail);

  return (
    <FormStep
      rules={forgotPasswordSchema}
      initialValues={{ email }}
      onSubmit={(values) => void dispatch(resetCodeRequested(values.email))}
      intro={t('reset.intro')}
      submit={{ label: t('reset.sendCode'), testId: 'forgot-submit', request: 'forgot' }}
      footer={
        <Text fontSize="sm">
          <StepLink testId="forgot-back" onClick={() => dispatch(stepShown('login'))}>
            {t('reset.backToLogin')}
          </StepLink>
        </Text>
      }
    >
      <FormField name="email" type="email" label={t('login.email')} testId="forgot-email" autoComplete="email" inputMode="email" autoFocus required />
    </FormStep>
  );
}
