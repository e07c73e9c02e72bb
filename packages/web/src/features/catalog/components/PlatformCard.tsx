import type { MouseEvent } from 'react';
import { Box, Flex, Heading, Image, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from 'react-router-dom';
import { useAppSelector } from '../../../app/hooks';
import { readableTextColor } from '../../../components/ui/color';
import { ButtonLink, RouterLink } from '../../../components/ui/links';
import type { Platform } from '../../../services/api';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import { formatPrice, minMonthlyPrice } from '../rules';
import { selectCurrencyCode } from '../selectors';

/** Home card: logo on the first brand colour, the lowest monthly price, and two ways in. */
export function PlatformCard({ platform }: { platform: Platform }) {
  const t = useT();
  const navigate = useNavigate();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const { culture } = useAppSelector(selectLanguage);
  const price = minMonthlyPrice(platform, currencyCode);
  const to = `/platform/${platform.id}`;

  // The whole card is a click target for mouse users; its links already navigated themselves.
  const openPlatform = (event: MouseEvent) => {
    if (!event.defaultPrevented) navigate(to);
  };

  return (
    <Box
      as="article"
      data-testid="platform-card"
      data-platform-id={platform.id}
      onClick={openPlatform}
      cursor="pointer"
      borderRadius="xl"
      overflow="hidden"
      borderWidth="1px"
      bg="bg"
      shadow="sm"
      transition="box-shadow 0.2s, transform 0.2s"
      _hover={{ shadow: 'lg', transform: 'translateY(-2px)' }}
      display="flex"
      flexDirection="column"
    >
      <Flex bg={platform.colorOne} h="36" align="center" justify="center" px="6">
        <Image
          data-testid="platform-card-logo"
          src={platform.logoBase}
          alt={platform.name}
          // The logos are 240×80: the attributes reserve their space (no layout shift).
          htmlWidth={240}
          htmlHeight={80}
          h="16"
          w="auto"
          maxW="80%"
          objectFit="contain"
          loading="lazy"
          decoding="async"
        />
      </Flex>
      <Stack p="5" gap="3" flex="1">
        <Heading as="h3" size="lg" data-testid="platform-card-name">
          {platform.name}
        </Heading>
        {price !== null && (
          <Text data-testid="platform-card-price" color="fg.muted">
            <Text as="span" fontSize="2xl" fontWeight="bold" color="fg">
              {formatPrice(price, currencyCode, culture)}
            </Text>
            {t('card.perMonth')}
          </Text>
        )}
        <Box flex="1" />
        <Flex gap="3" align="center" justify="space-between" wrap="wrap">
          <RouterLink data-testid="platform-card-details" to={to} fontWeight="medium">
            {t('card.seeDetails')}
          </RouterLink>
          <ButtonLink
            data-testid="platform-card-purchase"
            to={to}
            bg={platform.colorTwo}
            color={readableTextColor(platform.colorTwo)}
            // Keeps a white or pale brand colour visible on the white card.
            borderColor="blackAlpha.200"
            _hover={{ opacity: 0.9 }}
          >
            {t('card.purchaseNow')}
          </ButtonLink>
        </Flex>
      </Stack>
    </Box>
  );
}
