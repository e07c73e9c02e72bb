import { useEffect } from 'react';
import { Text } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import { selectPlatformById } from '../selectors';
import { platformSelected } from '../slice';

/** /platform/{id}. The options, prices and FAQ arrive with the platform-page issue. */
export default function PlatformPage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const id = Number(useParams().id);
  const platform = useAppSelector((state) => selectPlatformById(state, id));

  useEffect(() => {
    if (Number.isInteger(id) && id > 0) dispatch(platformSelected(id));
  }, [dispatch, id]);

  return (
    <Page testId="page-platform" title={platform?.name ?? t('platform.title')}>
      <Text>{platform?.description || t('platform.preparing')}</Text>
    </Page>
  );
}
