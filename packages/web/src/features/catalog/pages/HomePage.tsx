import { useEffect } from 'react';
import { Box, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useAppDispatch, useAppStore } from '../../../app/hooks';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import { useT } from '../../language/useT';
import { HeroArt } from '../components/HeroArt';
import { LogoCarousel } from '../components/LogoCarousel';
import { PlatformGrid } from '../components/PlatformGrid';
import { selectHomeStatus } from '../selectors';
import { homeRequested } from '../slice';

export default function HomePage() {
  const t = useT();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  usePageMeta({ title: null, fullTitle: t('meta.homeTitle'), description: t('home.subslogan'), robots: 'index' });

  // The catalog changes rarely: load it once per page load, and again after a failure. The
  // status is read on arrival only, so a failing server is not retried in a loop.
  useEffect(() => {
    const status = selectHomeStatus(store.getState());
    if (status === 'idle' || status === 'failed') dispatch(homeRequested());
  }, [dispatch, store]);

  return (
    <Box data-testid="page-home" px={{ base: '4', md: '6' }}>
      <SimpleGrid
        as="section"
        data-testid="home-hero"
        columns={{ base: 1, md: 2 }}
        gap={{ base: '6', md: '10' }}
        alignItems="center"
        py={{ base: '8', md: '14' }}
      >
        <Stack gap="4">
          <Heading as="h1" size={{ base: '3xl', md: '5xl' }} lineHeight="1.1" data-testid="home-slogan">
            {t('home.slogan')}
          </Heading>
          <Text fontSize={{ base: 'md', md: 'xl' }} color="fg.muted">
            {t('home.subslogan')}
          </Text>
          <Text fontSize="sm" fontWeight="medium" color="purple.700">
            {t('home.promise')}
          </Text>
        </Stack>
        <Box display="flex" justifyContent="center">
          <HeroArt />
        </Box>
      </SimpleGrid>

      <LogoCarousel />

      <Box as="section" aria-labelledby="home-platforms" py="8">
        <Heading as="h2" id="home-platforms" size="2xl" mb="6">
          {t('home.platforms')}
        </Heading>
        <PlatformGrid />
      </Box>
    </Box>
  );
}
