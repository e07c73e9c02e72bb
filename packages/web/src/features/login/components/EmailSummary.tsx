import { Button, Flex, Text } from '@chakra-ui/react';
import { useAppDispatch } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { changeEmailRequested } from '../slice';

/**
 * The e-mail chosen in the first step, with a way back to change it. The hidden username
 * field lets password managers file the password under this e-mail.
 */
export function EmailSummary({ email }: { email: string }) {
  const t = useT();
  const dispatch = useAppDispatch();
  return (
    <Flex align="center" gap="3" px="3" py="2" borderWidth="1px" borderRadius="md" bg="bg.subtle">
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Text data-testid="login-email-display" flex="1" minW="0" truncate fontWeight="medium">
        {email}
      </Text>
      <Button
        data-testid="login-change-email"
        variant="ghost"
        size="sm"
        colorPalette="purple"
        // The accessible name holds the visible word (WCAG 2.5.3, label in name) and says what changes.
        aria-label={t('login.changeEmailLabel')}
        onClick={() => dispatch(changeEmailRequested())}
      >
        {t('login.changeEmail')}
      </Button>
    </Flex>
  );
}
