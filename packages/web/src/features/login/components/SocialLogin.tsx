import { Box, Flex, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectCountry, selectProviders } from '../selectors';
import { GoogleButton } from './GoogleButton';
import { NaverButton } from './NaverButton';

/**
 * The social button (spec section 2): Google for GLOBAL visitors, Naver for Korean ones, each
 * only when the server has it configured. Nothing shows until both answers are in.
 */
export function SocialLogin() {
  const t = useT();
  const country = useAppSelector(selectCountry);
  const providers = useAppSelector(selectProviders);

  const google = country === 'GLOBAL' ? providers?.google : null;
  const naver = country === 'KR' ? providers?.naver : null;
  if (!google && !naver) return null;

  return (
    <Box as="section" aria-label={t('login.socialLabel')} mt="6">
      <Flex align="center" gap="3" mb="5" color="fg.muted" fontSize="sm">
        <Box flex="1" borderTopWidth="1px" />
        <Text>{t('login.or')}</Text>
        <Box flex="1" borderTopWidth="1px" />
      </Flex>
      <Flex justify="center">{google ? <GoogleButton clientId={google.clientId} /> : <NaverButton />}</Flex>
    </Box>
  );
}
