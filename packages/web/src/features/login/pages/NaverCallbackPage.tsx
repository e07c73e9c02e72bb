import { useEffect } from 'react';
import { Flex, Spinner, Text } from '@chakra-ui/react';
import { useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../../app/hooks';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import { naverCallbackOpened } from '../slice';

/** /naver/callback?code&state: Naver sends the visitor back here; the saga finishes the login. */
export default function NaverCallbackPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const code = params.get('code');
  const state = params.get('state');

  useEffect(() => {
    dispatch(naverCallbackOpened({ code, state }));
  }, [code, state, dispatch]);

  return (
    <Page testId="page-naver-callback" title={t('login.title')}>
      <Flex data-testid="naver-callback" role="status" align="center" gap="3">
        <Spinner size="sm" color="purple.600" />
        <Text>{t('naver.loggingIn')}</Text>
      </Flex>
    </Page>
  );
}
