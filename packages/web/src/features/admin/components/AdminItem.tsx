import { useState, type ReactNode } from 'react';
import { Box, Flex, Heading, Image, Stack, chakra } from '@chakra-ui/react';
import type { PanelItem } from '../../../services/api/panel';
import { useAdminT } from '../texts';

/** A labelled value of an item ("Order ID 42"). */
export function ItemField({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
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

/** The platform's logo on its brand colour (its initial when there is no logo). */
function PlatformImage({ item }: { item: PanelItem }) {
  const t = useAdminT();
  const [failed, setFailed] = useState(false);
  return (
    <Box
      w="96px"
      h="32px"
      flexShrink={0}
      borderRadius="md"
      overflow="hidden"
      bg={item.platformColorOne || '#1a1a2e'}
      color="white"
      display="grid"
      placeItems="center"
      fontWeight="bold"
    >
      {failed || !item.platformImgFileName ? (
        <span aria-hidden="true">{item.platformName.trim().charAt(0).toUpperCase()}</span>
      ) : (
        <Image
          data-testid="admin-item-image"
          src={item.platformImgFileName}
          alt={t('admin.logoAlt', { name: item.platformName })}
          htmlWidth={96}
          htmlHeight={32}
          w="full"
          h="full"
          objectFit="contain"
          onError={() => setFailed(true)}
        />
      )}
    </Box>
  );
}

/** One item of the admin user page's lists: the platform's image and name, its fields, its action. */
export function AdminItem({ item, testId, fields, children }: { item: PanelItem; testId: string; fields: ReactNode; children?: ReactNode }) {
  const headingId = `${testId}-${item.orderId}-${item.subscribeId ?? 'order'}`;
  return (
    <chakra.li listStyleType="none">
      <chakra.article
        aria-labelledby={headingId}
        data-testid={testId}
        data-order-id={item.orderId}
        data-subscription-id={item.subscribeId ?? undefined}
        borderWidth="1px"
        borderRadius="lg"
        p="4"
      >
        <Stack gap="3">
          <Flex align="center" gap="3">
            <PlatformImage item={item} />
            <Heading as="h4" id={headingId} size="md" overflowWrap="anywhere">
              {item.platformName}
            </Heading>
          </Flex>
          <chakra.dl
            m="0"
            display="grid"
            gap="3"
            gridTemplateColumns={{ base: 'repeat(1, minmax(0, 1fr))', sm: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(4, minmax(0, 1fr))' }}
          >
            {fields}
          </chakra.dl>
          {children}
        </Stack>
      </chakra.article>
    </chakra.li>
  );
}
