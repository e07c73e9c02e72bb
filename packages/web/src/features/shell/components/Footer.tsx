import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import { selectBusiness } from '../../business/selectors';
import { POLICY_PAGES } from '../../content/policies';
import { useT } from '../../language/useT';
import type { DictionaryKey } from '../../language/dictionary';

function BusinessInfo() {
  const t = useT();
  const business = useAppSelector(selectBusiness);
  if (!business) return null;

  const rows: Array<[DictionaryKey, string]> = [
    ['footer.businessName', business.name],
    ['footer.registrationNumber', business.registrationNumber],
    ['footer.mailOrderNumber', business.mailOrderNumber],
    ['footer.address', business.address],
    ['footer.representative', business.representative],
    ['footer.phone', business.supportPhone],
    ['footer.email', business.supportEmail],
  ];
  return (
    <Box as="section" data-testid="footer-business" aria-label={t('footer.business')} fontSize="xs" color="fg.muted">
      {rows
        .filter(([, value]) => Boolean(value))
        .map(([label, value]) => (
          <Text key={label}>
            {t(label)}: {value}
          </Text>
        ))}
    </Box>
  );
}

export function Footer() {
  const t = useT();
  const business = useAppSelector(selectBusiness);
  const links: Array<{ path: string; label: DictionaryKey }> = [
    { path: 'support', label: 'page.support' },
    { path: 'howitworks', label: 'page.howitworks' },
    ...POLICY_PAGES.map((page) => ({ path: page.path, label: page.title })),
  ];

  return (
    <Box as="footer" data-testid="footer" borderTopWidth="1px" bg="bg.subtle" mt="12">
      <Stack maxW="1280px" mx="auto" px={{ base: '4', md: '6' }} py="8" gap="6">
        <Flex as="nav" aria-label={t('footer.navigation')} wrap="wrap" columnGap="6" rowGap="2" fontSize="sm">
          {links.map((link) => (
            <RouterLink key={link.path} data-testid={`footer-link-${link.path}`} to={`/${link.path}`}>
              {t(link.label)}
            </RouterLink>
          ))}
        </Flex>
        <BusinessInfo />
        <Text fontSize="xs" color="fg.muted">
          {t('footer.copyright', { year: new Date().getFullYear(), name: business?.name || t('app.name') })}
        </Text>
      </Stack>
    </Box>
  );
}
