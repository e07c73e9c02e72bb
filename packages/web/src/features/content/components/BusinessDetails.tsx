import { Box, Heading, Link, Text, chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { selectBusiness } from '../../business/selectors';
import type { DictionaryKey } from '../../language/dictionary';
import { useT } from '../../language/useT';
import { useContent } from '../useContent';

/**
 * The business information of spec section 1 (name, registration number, mail-order report
 * number, address, representative of the UK limited company, phone, e-mail), from the server's
 * configuration (`GET /api/main/business`).
 */
export function BusinessDetails() {
  const t = useT();
  const { texts, fill } = useContent();
  const business = useAppSelector(selectBusiness);
  if (!business) return null;

  const rows: Array<{ testId: string; label: DictionaryKey; value: string; href?: string }> = [
    { testId: 'business-name', label: 'footer.businessName', value: business.name },
    { testId: 'business-registration-number', label: 'footer.registrationNumber', value: business.registrationNumber },
    { testId: 'business-mail-order-number', label: 'footer.mailOrderNumber', value: business.mailOrderNumber },
    { testId: 'business-address', label: 'footer.address', value: business.address },
    { testId: 'business-representative', label: 'footer.representative', value: business.representative },
    { testId: 'business-phone', label: 'footer.phone', value: business.supportPhone, href: `tel:${business.supportPhone.replace(/[^+\d]/g, '')}` },
    { testId: 'business-email', label: 'footer.email', value: business.supportEmail, href: `mailto:${business.supportEmail}` },
  ];
  const statement = fill(texts.companyStatement);

  return (
    <Box
      as="section"
      data-testid="business-details"
      aria-labelledby="business-details-heading"
      mt="10"
      p={{ base: '4', md: '6' }}
      borderWidth="1px"
      borderRadius="lg"
      bg="bg.subtle"
    >
      <Heading as="h2" id="business-details-heading" size="lg" mb="3">
        {texts.businessDetailsHeading}
      </Heading>
      {statement && <Text mb="4">{statement}</Text>}
      <chakra.dl display="grid" gridTemplateColumns={{ base: '1fr', sm: 'auto 1fr' }} columnGap="6" rowGap={{ base: '0', sm: '2' }} m="0">
        {rows
          .filter((row) => Boolean(row.value))
          .map((row) => (
            <Box key={row.testId} display="contents">
              <chakra.dt fontWeight="semibold" mt={{ base: '2', sm: '0' }}>
                {t(row.label)}
              </chakra.dt>
              <chakra.dd data-testid={row.testId} m="0" overflowWrap="anywhere">
                {row.href ? <Link href={row.href}>{row.value}</Link> : row.value}
              </chakra.dd>
            </Box>
          ))}
      </chakra.dl>
    </Box>
  );
}
