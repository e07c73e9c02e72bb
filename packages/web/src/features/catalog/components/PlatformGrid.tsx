import { SimpleGrid, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { selectHomeStatus, selectPlatforms } from '../selectors';
import { PlatformCard } from './PlatformCard';

export function PlatformGrid() {
  const t = useT();
  const platforms = useAppSelector(selectPlatforms);
  const status = useAppSelector(selectHomeStatus);

  if (platforms.length === 0) {
    // While loading, the overlay speaks; afterwards an empty catalog gets a sentence.
    if (status === 'loading' || status === 'idle') return null;
    return (
      <Text data-testid="platform-grid-empty" color="fg.muted" py="8" textAlign="center">
        {t('home.empty')}
      </Text>
    );
  }
  return (
    <SimpleGrid data-testid="platform-grid" columns={{ base: 1, sm: 2, lg: 3, xl: 4 }} gap="6">
      {platforms.map((platform) => (
        <PlatformCard key={platform.id} platform={platform} />
      ))}
    </SimpleGrid>
  );
}
