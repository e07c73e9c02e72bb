import { useEffect } from 'react';
import { Box, Button, Flex, HStack, Heading, Image, Stack, Text, chakra } from '@chakra-ui/react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { readableTextColor } from '../../../components/ui/color';
import { FaqList } from '../../../components/ui/FaqList';
import { usePageMeta } from '../../../components/ui/usePageMeta';
import type { Platform } from '../../../services/api';
import type { DictionaryKey } from '../../language/dictionary';
import { selectLanguage } from '../../language/selectors';
import { useT } from '../../language/useT';
import NotFoundPage from '../../shell/pages/NotFoundPage';
import { OptionGroup } from '../components/OptionGroup';
import { parsePlatformId } from '../platformId';
import { discountPercent, formatPrice, monthlyPrice, regularPrice, salePrice } from '../rules';
import { selectCurrencyCode, selectPlatformPage, selectSelection } from '../selectors';
import { paymentRequested, platformPageClosed, platformPageOpened, platformRefreshRequested, selectionChanged } from '../slice';

const CATEGORY_KEYS: Record<number, DictionaryKey> = { 0: 'platform.category.0', 1: 'platform.category.1', 8: 'platform.category.8' };

/**
 * /platform/{id} (spec sections 2 and 4): on load the platform is requested in the current
 * language, its id stored and the currency taken from the answer; the first enabled type and
 * duration are preselected. Unknown or malformed ids get the not-found page.
 */
export default function PlatformPage() {
  const dispatch = useAppDispatch();
  const id = parsePlatformId(useParams().id);
  const page = useAppSelector(selectPlatformPage);

  useEffect(() => {
    dispatch(platformPageOpened(id));
    return () => {
      dispatch(platformPageClosed());
    };
  }, [dispatch, id]);

  if (id === null || (page.id === id && page.status === 'notFound')) return <NotFoundPage kind="platform" />;
  // Until the page's own state arrives (first render), nothing stale from another platform shows.
  const platform = page.id === id ? page.platform : null;
  if (!platform) return <PlatformPlaceholder failed={page.id === id && page.status === 'failed'} />;
  return <PlatformDetails platform={platform} status={page.status === 'loaded' || page.status === 'failed' ? page.status : 'loading'} />;
}

function RetryNotice() {
  const t = useT();
  const dispatch = useAppDispatch();
  return (
    <Stack data-testid="platform-failed" role="alert" gap="3" align="flex-start" p="4" mb="4" borderRadius="md" bg="bg.error" color="fg">
      <Text>{t('platform.failed')}</Text>
      <Button data-testid="platform-retry" size="sm" colorPalette="purple" onClick={() => dispatch(platformRefreshRequested())}>
        {t('platform.retry')}
      </Button>
    </Stack>
  );
}

function PlatformPlaceholder({ failed }: { failed: boolean }) {
  const t = useT();
  const dispatch = useAppDispatch();
  usePageMeta({ title: null });
  return (
    <Box data-testid="page-platform" data-status={failed ? 'failed' : 'loading'} px={{ base: '4', md: '6' }} py="6">
      {/* The header band's size, so the page does not jump when the platform arrives. */}
      <Box h={{ base: '44', md: '52' }} borderRadius="2xl" bg="bg.muted" />
      {failed ? (
        <Stack data-testid="platform-failed" role="alert" gap="4" align="flex-start" py="8">
          <Heading as="h1" size="xl">
            {t('platform.failed')}
          </Heading>
          <Button data-testid="platform-retry" colorPalette="purple" onClick={() => dispatch(platformRefreshRequested())}>
            {t('platform.retry')}
          </Button>
        </Stack>
      ) : (
        <Text py="8" color="fg.muted">
          {t('platform.loading')}
        </Text>
      )}
    </Box>
  );
}

function PlatformDetails({ platform, status }: { platform: Platform; status: 'loading' | 'loaded' | 'failed' }) {
  const t = useT();
  const dispatch = useAppDispatch();
  const currencyCode = useAppSelector(selectCurrencyCode);
  const selection = useAppSelector(selectSelection);
  const { culture } = useAppSelector(selectLanguage);
  usePageMeta({ title: t('meta.platformTitle', { name: platform.name }), description: platform.description, robots: 'index' });

  const types = platform.type.filter((type) => type.isEnable);
  const durations = platform.duration.filter((duration) => duration.isEnable);
  const { typeId, durationId } = selection;
  const sale = salePrice(platform, durationId, typeId, currencyCode);
  const regular = regularPrice(platform, durationId, typeId, currencyCode);
  const monthly = monthlyPrice(platform, durationId, typeId, currencyCode);
  const discount = discountPercent(regular, sale);
  const perMonth = (amount: number) => `${formatPrice(amount, currencyCode, culture)}${t('card.perMonth')}`;

  const headerText = readableTextColor(platform.colorOne);
  const buttonText = readableTextColor(platform.colorTwo);
  const category = platform.platformType === undefined ? undefined : CATEGORY_KEYS[platform.platformType];
  const slots = platform.slotsCount > 1 ? t('platform.slots', { count: platform.slotsCount }) : platform.slotsCount === 1 ? t('platform.wholeAccount') : null;

  return (
    <Box
      data-testid="page-platform"
      data-status={status}
      data-platform-id={platform.id}
      data-currency={currencyCode}
      px={{ base: '4', md: '6' }}
      py={{ base: '4', md: '6' }}
    >
      {/* The home list's copy is shown, but the fresh answer failed: the prices may be stale. */}
      {status === 'failed' && <RetryNotice />}
      <Flex
        as="header"
        data-testid="platform-header"
        bg={platform.colorOne}
        color={headerText}
        borderRadius="2xl"
        minH={{ base: '44', md: '52' }}
        px={{ base: '5', md: '10' }}
        py={{ base: '6', md: '8' }}
        direction={{ base: 'column', md: 'row' }}
        align={{ base: 'flex-start', md: 'center' }}
        gap={{ base: '4', md: '10' }}
      >
        <Image
          data-testid="platform-logo"
          src={platform.logoBase}
          alt={t('platform.logoAlt', { name: platform.name })}
          // The logos are 240×80: the attributes reserve the space before the image arrives.
          htmlWidth={240}
          htmlHeight={80}
          h={{ base: '14', md: '20' }}
          w="auto"
          maxW="full"
          objectFit="contain"
          fetchPriority="high"
        />
        <Stack gap="2">
          <Heading as="h1" data-testid="platform-name" size={{ base: '2xl', md: '4xl' }} color="inherit">
            {platform.name}
          </Heading>
          <HStack gap="2" wrap="wrap">
            {category && (
              <chakra.span
                data-testid="platform-category"
                bg="whiteAlpha.900"
                color="gray.900"
                fontSize="sm"
                fontWeight="semibold"
                px="2.5"
                py="0.5"
                borderRadius="full"
              >
                {t(category)}
              </chakra.span>
            )}
            {slots && (
              <Text data-testid="platform-slots" fontSize="sm" fontWeight="medium">
                {slots}
              </Text>
            )}
          </HStack>
        </Stack>
      </Flex>

      <Box
        display="grid"
        gridTemplateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 26rem' }}
        gridTemplateAreas={{ base: '"description" "purchase" "how" "faq"', lg: '"description purchase" "how purchase" "faq purchase"' }}
        gridTemplateRows={{ lg: 'auto auto 1fr' }}
        columnGap="10"
        rowGap="8"
        mt="8"
      >
        <Text gridArea="description" data-testid="platform-description" fontSize={{ base: 'md', md: 'lg' }} lineHeight="tall" whiteSpace="pre-line">
          {platform.description}
        </Text>

        <Box gridArea="purchase">
          <Box
            as="section"
            aria-labelledby="platform-options-heading"
            data-testid="platform-purchase"
            position={{ lg: 'sticky' }}
            top={{ lg: '24' }}
            borderWidth="1px"
            borderTopWidth="4px"
            borderTopColor={platform.colorTwo}
            borderRadius="xl"
            p={{ base: '4', md: '6' }}
            shadow="sm"
            bg="bg"
          >
            <Heading as="h2" id="platform-options-heading" size="lg" mb="4">
              {t('platform.options')}
            </Heading>
            <Stack gap="5">
              {types.length > 0 && (
                <OptionGroup
                  kind="type"
                  legend={t('platform.type')}
                  options={types.map((type) => ({ id: type.id, name: type.name }))}
                  selectedId={typeId}
                  accent={platform.colorTwo}
                  onSelect={(id) => dispatch(selectionChanged({ typeId: id }))}
                />
              )}
              {durations.length > 0 && (
                <OptionGroup
                  kind="duration"
                  legend={t('platform.duration')}
                  options={durations.map((duration) => {
                    const amount = monthlyPrice(platform, duration.id, typeId, currencyCode);
                    return { id: duration.id, name: duration.name, detail: amount === null ? undefined : perMonth(amount) };
                  })}
                  selectedId={durationId}
                  accent={platform.colorTwo}
                  onSelect={(id) => dispatch(selectionChanged({ durationId: id }))}
                />
              )}

              <Box data-testid="platform-price" aria-live="polite" aria-atomic="true" borderTopWidth="1px" pt="4">
                {sale === null ? (
                  <Text data-testid="platform-no-price" color="fg.muted">
                    {t('platform.noPrice')}
                  </Text>
                ) : (
                  <Stack gap="1">
                    <Text fontSize="sm" color="fg.muted">
                      {t('platform.total')}
                    </Text>
                    <HStack gap="3" wrap="wrap" align="baseline">
                      <Text data-testid="platform-sale-price" fontSize="3xl" fontWeight="bold" lineHeight="1">
                        {formatPrice(sale, currencyCode, culture)}
                      </Text>
                      {discount > 0 && regular !== null && (
                        <>
                          <Text color="fg.muted">
                            <chakra.span srOnly>{t('platform.regularPrice')}: </chakra.span>
                            <chakra.del data-testid="platform-regular-price">{formatPrice(regular, currencyCode, culture)}</chakra.del>
                          </Text>
                          <chakra.span
                            data-testid="platform-discount"
                            bg="green.700"
                            color="white"
                            fontSize="sm"
                            fontWeight="semibold"
                            px="2"
                            py="0.5"
                            borderRadius="md"
                          >
                            {t('platform.save', { percent: discount })}
                          </chakra.span>
                        </>
                      )}
                    </HStack>
                    {monthly !== null && (
                      <Text data-testid="platform-monthly-price" fontWeight="medium">
                        {perMonth(monthly)}
                      </Text>
                    )}
                  </Stack>
                )}
              </Box>

              <Button
                data-testid="platform-go-to-payment"
                size="xl"
                w="full"
                bg={platform.colorTwo}
                color={buttonText}
                _hover={{ opacity: 0.9 }}
                disabled={sale === null || types.length === 0 || durations.length === 0}
                onClick={() => dispatch(paymentRequested())}
              >
                {t('platform.goToPayment')}
              </Button>
              <Text data-testid="platform-activation" fontSize="sm" color="fg.muted">
                {t('platform.activation')}
              </Text>
              {platform.haveInvitation && (
                <Text
                  data-testid="platform-invitation-note"
                  fontSize="sm"
                  p="3"
                  borderRadius="md"
                  bg="orange.50"
                  color="orange.900"
                  borderWidth="1px"
                  borderColor="orange.200"
                >
                  {t('platform.invitation')}
                </Text>
              )}
            </Stack>
          </Box>
        </Box>

        {platform.howItWorks.length > 0 && (
          <Box as="section" gridArea="how" aria-labelledby="platform-how-heading" data-testid="platform-how-it-works">
            <Heading as="h2" id="platform-how-heading" size="xl" mb="4">
              {t('platform.howItWorks')}
            </Heading>
            <chakra.ol listStyleType="none" ps="0" m="0" display="flex" flexDirection="column" gap="4">
              {platform.howItWorks.map((point, index) => (
                <Flex as="li" key={index} data-testid="platform-how-it-works-item" gap="4" align="flex-start">
                  <Box
                    flexShrink={0}
                    boxSize="8"
                    borderRadius="full"
                    bg={platform.colorOne}
                    color={headerText}
                    fontWeight="bold"
                    display="grid"
                    placeItems="center"
                    aria-hidden="true"
                  >
                    {index + 1}
                  </Box>
                  <Text pt="1">{point}</Text>
                </Flex>
              ))}
            </chakra.ol>
          </Box>
        )}

        {/* Spec: the FAQ section only when the platform has entries. */}
        {platform.faq.length > 0 && (
          <Box as="section" gridArea="faq" aria-labelledby="platform-faq-heading" data-testid="platform-faq">
            <Heading as="h2" id="platform-faq-heading" size="xl" mb="2">
              {t('platform.faq')}
            </Heading>
            <FaqList key={platform.id} items={platform.faq} headingLevel={3} />
          </Box>
        )}
      </Box>
    </Box>
  );
}
