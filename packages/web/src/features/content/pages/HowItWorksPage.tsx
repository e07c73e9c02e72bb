import { Box, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import { useT } from '../../language/useT';
import { ContentSections } from '../components/ContentSections';
import { useContent } from '../useContent';

/** /howitworks: the four steps of buying, then the rules and guides of a shared account. */
export default function HowItWorksPage() {
  const t = useT();
  const { texts, fill } = useContent();
  const page = texts.howitworks;

  return (
    <Page testId="page-howitworks" title={t('page.howitworks')} intro={page.intro} indexable>
      <chakra.ol listStyleType="none" ps="0" m="0" mb="12" display="grid" gridTemplateColumns={{ base: '1fr', md: 'repeat(2, 1fr)' }} gap="5">
        {page.steps.map((step, index) => (
          <Flex as="li" key={step.title} data-testid="howitworks-step" gap="4" align="flex-start" p="5" borderWidth="1px" borderRadius="lg">
            <Box
              flexShrink={0}
              boxSize="9"
              borderRadius="full"
              bg="purple.700"
              color="white"
              fontWeight="bold"
              display="grid"
              placeItems="center"
              aria-hidden="true"
            >
              {index + 1}
            </Box>
            <Stack gap="1">
              <Heading as="h2" size="md">
                {step.title}
              </Heading>
              <Text color="fg.muted">{fill(step.text) ?? step.text}</Text>
            </Stack>
          </Flex>
        ))}
      </chakra.ol>
      <ContentSections sections={page.sections} fill={fill} />
    </Page>
  );
}
