import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { Page } from '../../../components/ui/Page';
import type { DictionaryKey } from '../../language/dictionary';
import { useT } from '../../language/useT';

const STEPS: DictionaryKey[] = ['howItWorks.step1', 'howItWorks.step2', 'howItWorks.step3', 'howItWorks.step4', 'howItWorks.step5'];

export default function HowItWorksPage() {
  const t = useT();
  return (
    <Page testId="page-howitworks" title={t('page.howitworks')}>
      <Stack as="ol" gap="4" listStyleType="none" ps="0">
        {STEPS.map((step, index) => (
          <Flex as="li" key={step} gap="4" align="flex-start">
            <Box
              flexShrink={0}
              boxSize="8"
              borderRadius="full"
              bg="purple.600"
              color="white"
              fontWeight="bold"
              display="grid"
              placeItems="center"
              aria-hidden="true"
            >
              {index + 1}
            </Box>
            <Text pt="1">{t(step)}</Text>
          </Flex>
        ))}
      </Stack>
    </Page>
  );
}
