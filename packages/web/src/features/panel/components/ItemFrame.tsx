import type { ReactNode } from 'react';
import { Box, Flex, Heading, Stack, chakra } from '@chakra-ui/react';
import { PlatformLogo } from '../../../components/ui/PlatformLogo';
import type { PanelItem } from '../../../services/api/panel';
import { PANEL_TEXTS } from '../texts';
import { useT } from '../../language/useT';

import { ItemField } from '../../../components/ui/ItemField';

export { ItemField as Field };

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

interface ItemFrameProps {
  item: PanelItem;
  /** `data-testid` of the item: panel-incomplete-item or panel-active-item. */
  testId: string;
  children: ReactNode;
}

/** One item of either list: the platform's image and name as its heading, then its details. */
export function ItemFrame({ item, testId, children }: ItemFrameProps) {
  const t = useT(PANEL_TEXTS);
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
            {/* The catalog's logos are white marks of 240×80 drawn for the platform's brand colour. */}
            <PlatformLogo
              name={item.platformName}
              src={item.platformImgFileName}
              colour={item.platformColorOne}
              alt={t('panel.logoAlt', { name: item.platformName })}
              testId="panel-item-image"
              htmlWidth={120}
              htmlHeight={40}
              w={{ base: '96px', md: '120px' }}
              h={{ base: '32px', md: '40px' }}
              fontSize="lg"
            />
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
/** An order item's order id, type and duration, then whatever else the item shows. */
export function OrderFields({ item, children }: { item: PanelItem; children?: ReactNode }) {
  const t = useT(PANEL_TEXTS);
  return (
    <Fields>
      <ItemField label={t('panel.orderId')} testId="panel-item-order">
        {item.orderId}
      </ItemField>
      <ItemField label={t('panel.type')} testId="panel-item-type">
        {item.type}
      </ItemField>
      <ItemField label={t('panel.duration')} testId="panel-item-duration">
        {item.duration}
      </ItemField>
      {children}
    </Fields>
  );
}

export function Note({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Box data-testid={testId} role="note" fontSize="sm" p="3" borderRadius="md" bg="blue.50" color="blue.900" borderWidth="1px" borderColor="blue.200">
      {children}
    </Box>
  );
}
