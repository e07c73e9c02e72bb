import { pagePath } from '@subshare/core/pages';
import { Box, Heading, Link, Stack, Text, chakra } from '@chakra-ui/react';
import { useAppSelector } from '../../../app/hooks';
import { RouterLink } from '../../../components/ui/links';
import { Page } from '../../../components/ui/Page';
import { selectBusiness } from '../../business/selectors';
import { useT } from '../../language/useT';
import { BusinessDetails } from '../components/BusinessDetails';
import { useContent } from '../useContent';

/** Spec: support with phone {phone} and e-mail {email}, from the business details. */
export default function SupportPage() {
  const t = useT();
  const { texts, fill } = useContent();
  const business = useAppSelector(selectBusiness);
  const support = texts.support;

  return (
    <Page testId="page-support" title={t('page.support')} intro={support.intro} indexable>
      <Stack gap="10">
        <Box as="section" aria-labelledby="support-contact">
          <Heading as="h2" id="support-contact" size="xl" mb="4">
            {support.contactHeading}
          </Heading>
          <Stack gap="3" fontSize="lg">
            {business?.supportPhone && (
              <Text data-testid="support-phone">
                {support.phoneLabel}:{' '}
                <Link href={`tel:${business.supportPhone.replace(/[^+\d]/g, '')}`} fontWeight="semibold">
                  {business.supportPhone}
                </Link>
              </Text>
            )}
            {business?.supportEmail && (
              <Text data-testid="support-email">
                {support.emailLabel}:{' '}
                <Link href={`mailto:${business.supportEmail}`} fontWeight="semibold">
                  {business.supportEmail}
                </Link>
              </Text>
            )}
            <Text fontSize="md" color="fg.muted">
              {support.contactNote}
            </Text>
          </Stack>
        </Box>

        <Box as="section" aria-labelledby="support-self-help">
          <Heading as="h2" id="support-self-help" size="xl" mb="4">
            {support.selfHelpHeading}
          </Heading>
          <chakra.ul listStyleType="disc" ps="6" m="0" display="flex" flexDirection="column" gap="2" lineHeight="tall">
            {support.selfHelp.map((item) => (
              <li key={item}>{fill(item) ?? item}</li>
            ))}
          </chakra.ul>
          <Stack direction={{ base: 'column', sm: 'row' }} gap={{ base: '2', sm: '6' }} mt="5">
            <RouterLink data-testid="support-faq-link" to={pagePath.faq()} fontWeight="medium">
              {support.faqLink}
            </RouterLink>
            <RouterLink data-testid="support-howitworks-link" to={pagePath.howItWorks()} fontWeight="medium">
              {support.howItWorksLink}
            </RouterLink>
          </Stack>
        </Box>
      </Stack>
      <BusinessDetails />
    </Page>
  );
}
