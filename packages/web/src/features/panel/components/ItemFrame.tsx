import { useState, type ReactNode } from 'react';
import { Box, Flex, Heading, Image, Stack, chakra } from '@chakra-ui/react';
import type { PanelItem } from '../../../services/api/panel';
import { usePanelT } from '../texts';

/** A labelled value of an item ("Order ID 42"): a dt/dd pair of the item's list. */
export function Field({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Box minW="0">
      <chakra.dt fontSize="sm" color="fg.muted">
        {label}
      </chakra.dt>
      <chakra.dd data-testid={testId} m="0" fontWeight="semibold" overflowWrap="anywhere">
        {children}
      </chakra.dd>
    </Box>
  );
}

/** The fields of an item, two or three to a row. */
export function Fields({ children }: { children: ReactNode }) {
  return (
    <chakra.dl
      display="grid"
      gridTemplateColumns={{ base: 'repeat(1, minmax(0, 1fr))', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' }}
      gap="4"
      m="0"
    >
      {children}
    </chakra.dl>
  );
}

/**
 * The platform's logo: the catalog's logos are white marks of 240×80 drawn for the platform's
 * brand colour (the shop's dark neutral when an older answer has none).
 */
function PlatformImage({ item }: { item: PanelItem }) {
  const t = usePanelT();
  const [failed, setFailed] = useState(false);
  return (
    <Box
      w={{ base: '96px', md: '120px' }}
      h={{ base: '32px', md: '40px' }}
      flexShrink={0}
      borderRadius="md"
      overflow="hidden"
      bg={item.platformColorOne || '#1a1a2e'}
      color="white"
      display="grid"
      placeItems="center"
      fontWeight="bold"
      fontSize="lg"
    >
      {failed || !item.platformImgFileName ? (
        // No logo to show: the platform's initial (its name is the heading next to it).
        <span aria-hidden="true">{item.platformName.trim().charAt(0).toUpperCase()}</span>
      ) : (
        <Image
          data-testid="panel-item-image"
          src={item.platformImgFileName}
          alt={t('panel.logoAlt', { name: item.platformName })}
          // The logos are 240×80: the attributes reserve the space before the image arrives.
          htmlWidth={120}
          htmlHeight={40}
          w="full"
          h="full"
          objectFit="contain"
          onError={() => setFailed(true)}
        />
      )}
    </Box>
  );
}

interface ItemFrameProps {
  item: PanelItem;
  /** `data-testid` of the item: panel-incomplete-item or panel-active-item. */
  testId: string;
  children: ReactNode;
}

/** One item of either list: the platform's image and name as its heading, then its details. */
export function ItemFrame({ item, testId, children }: ItemFrameProps) {
  const headingId = `panel-${testId}-${item.orderId}-${item.subscribeId ?? 'order'}`;
  return (
    <chakra.li listStyleType="none">
      <chakra.article
        aria-labelledby={headingId}
        data-testid={testId}
        data-order-id={item.orderId}
        data-subscription-id={item.subscribeId ?? undefined}
        data-platform-id={item.platformId}
        borderWidth="1px"
        borderRadius="xl"
        p={{ base: '4', md: '5' }}
        bg="bg"
      >
        <Stack gap="4">
          <Flex align="center" gap="4">
            <PlatformImage item={item} />
            <Heading as="h4" id={headingId} data-testid="panel-item-platform" size="lg" overflowWrap="anywhere">
              {item.platformName}
            </Heading>
          </Flex>
          {children}
        </Stack>
      </chakra.article>
    </chakra.li>
  );
}

/** An info note of an item ('will be activated', the invitation hint). */
export function Note({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Box data-testid={testId} role="note" fontSize="sm" p="3" borderRadius="md" bg="blue.50" color="blue.900" borderWidth="1px" borderColor="blue.200">
      {children}
    </Box>
  );
}
