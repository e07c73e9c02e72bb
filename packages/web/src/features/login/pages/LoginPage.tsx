import { useEffect, type ComponentType } from 'react';
import { Box, Heading } from '@chakra-ui/react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import type { DictionaryKey } from '../../language/dictionary';
import { useT } from '../../language/useT';
import { CheckEmailStep } from '../components/CheckEmailStep';
import { ForgotStep } from '../components/ForgotStep';
import { LoginStep } from '../components/LoginStep';
import { RegisterStep } from '../components/RegisterStep';
import { ResetStep } from '../components/ResetStep';
import { SocialLogin } from '../components/SocialLogin';
import { VerifyStep } from '../components/VerifyStep';
import { selectStep } from '../selectors';
import { loginPageClosed, loginPageOpened, type LoginStep as Step } from '../slice';

const TITLES: Record<Step, DictionaryKey> = {
  check: 'login.title',
  login: 'login.loginTitle',
  register: 'login.registerTitle',
  verify: 'login.verifyTitle',
  forgot: 'login.forgotTitle',
  reset: 'login.resetTitle',
};

const STEPS: Record<Step, ComponentType> = {
  check: CheckEmailStep,
  login: LoginStep,
  register: RegisterStep,
  verify: VerifyStep,
  forgot: ForgotStep,
  reset: ResetStep,
};

/**
 * /login: four steps (check → login or register → e-mail verification), and from the password
 * step "Forgot password?" (forgot → reset), driven by the login saga; the page only tells it when the visitor arrives and leaves. `login-step` carries the
 * current step in `data-step` for tests.
 */
export default function LoginPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const step = useAppSelector(selectStep);

  useEffect(() => {
    dispatch(loginPageOpened());
    return () => {
      dispatch(loginPageClosed());
    };
  }, [dispatch]);

  const CurrentStep = step ? STEPS[step] : null;
  return (
    <Box data-testid="page-login" px="4" py={{ base: '8', md: '14' }}>
      <Box maxW="440px" mx="auto" p={{ base: '5', md: '8' }} borderWidth="1px" borderRadius="xl" bg="bg" boxShadow="sm">
        <Heading as="h1" size="2xl" mb="4">
          {t(step ? TITLES[step] : 'login.title')}
        </Heading>
        {step && CurrentStep && (
          <Box data-testid="login-step" data-step={step}>
            <CurrentStep key={step} />
          </Box>
        )}
        {(step === 'check' || step === 'login' || step === 'register') && <SocialLogin />}
      </Box>
    </Box>
  );
}
