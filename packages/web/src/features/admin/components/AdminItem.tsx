import type { ReactNode } from 'react';
import { Flex, Heading, Stack, chakra } from '@chakra-ui/react';
import { PlatformLogo } from '../../../components/ui/PlatformLogo';
import type { PanelItem } from '../../../services/api/panel';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

export { ItemField } from '../../../components/ui/ItemField';

/** One item of the admin user page's lists: the platform's image and name, its fields, its action. */
export function AdminItem({ item, testId, fields, children }: { item: PanelItem; testId: string; fields: ReactNode; children?: ReactNode }) {
  const t = useT(ADMIN_TEXTS);
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
            <PlatformLogo
              name={item.platformName}
              src={item.platformImgFileName}
              colour={item.platformColorOne}
              alt={t('admin.logoAlt', { name: item.platformName })}
              testId="admin-item-image"
              htmlWidth={96}
              htmlHeight={32}
              w="96px"
              h="32px"
            />
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
