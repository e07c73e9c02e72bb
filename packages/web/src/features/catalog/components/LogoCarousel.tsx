import { useEffect } from 'react';
import { Box, Flex, Image } from '@chakra-ui/react';
import { Link as RouterLinkBase } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { useT } from '../../language/useT';
import { CAROUSEL_FIXED_SLOTS } from '../rules';
import { selectCarouselItems } from '../selectors';
import { carouselStarted, carouselStopped } from '../slice';

/**
 * Shows the newest four logos of the rotating list. On each rotation the track is re-keyed
 * and slides left by one slot: the oldest logo leaves, the new one enters on the right.
 */
export function LogoCarousel() {
  const t = useT();
  const dispatch = useAppDispatch();
  const items = useAppSelector(selectCarouselItems);

  useEffect(() => {
    dispatch(carouselStarted());
    return () => {
      dispatch(carouselStopped());
    };
  }, [dispatch]);

  if (items.length === 0) return null;

  // The visible slots plus the logo sliding out on the left.
  const track = items.slice(-(CAROUSEL_FIXED_SLOTS + 1));
  const sliding = track.length > CAROUSEL_FIXED_SLOTS;
  const slotShare = 100 / track.length;
  const newestKey = track[track.length - 1]!.key;

  return (
    <Box as="section" data-testid="logo-carousel" aria-label={t('home.carousel')} overflow="hidden" py="4">
      <Flex
        key={newestKey}
        w={`${(track.length / CAROUSEL_FIXED_SLOTS) * 100}%`}
        transform={sliding ? `translateX(-${slotShare}%)` : undefined}
        animation={sliding ? 'carousel-slide 600ms ease-out' : undefined}
        css={{ '@media (prefers-reduced-motion: reduce)': { animation: 'none' } }}
      >
        {track.map((item, index) => {
          const leaving = sliding && index === 0;
          return (
            <Flex key={item.key} flex="1 1 0" minW="0" justify="center" align="center" px={{ base: '2', md: '4' }}>
              <RouterLinkBase
                to={`/platform/${item.platformId}`}
                data-testid={leaving ? undefined : 'carousel-logo'}
                data-platform-id={item.platformId}
                aria-hidden={leaving || undefined}
                tabIndex={leaving ? -1 : undefined}
                title={item.name}
              >
                <Image
                  src={item.logo}
                  alt={item.name}
                  htmlWidth={120}
                  htmlHeight={120}
                  h={{ base: '10', md: '14' }}
                  w="auto"
                  maxW="full"
                  objectFit="contain"
                  draggable={false}
                />
              </RouterLinkBase>
            </Flex>
          );
        })}
      </Flex>
    </Box>
  );
}
