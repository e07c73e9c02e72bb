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

  const rows: Array<[DictionaryKey, string, string]> = [
    ['footer.businessName', business.name, 'name'],
    ['footer.registrationNumber', business.registrationNumber, 'registration-number'],
    ['footer.mailOrderNumber', business.mailOrderNumber, 'mail-order-number'],
    ['footer.address', business.address, 'address'],
    ['footer.representative', business.representative, 'representative'],
    ['footer.phone', business.supportPhone, 'phone'],
    ['footer.email', business.supportEmail, 'email'],
  ];
  return (
    <Box as="section" data-testid="footer-business" aria-label={t('footer.business')} fontSize="xs" color="fg.muted">
      <Text data-testid="footer-company-type">{t('footer.companyType')}</Text>
      {rows
        .filter(([, value]) => Boolean(value))
        .map(([label, value, testId]) => (
          <Text key={label} data-testid={`footer-business-${testId}`}>
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
    { path: 'faq', label: 'page.faq' },
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
