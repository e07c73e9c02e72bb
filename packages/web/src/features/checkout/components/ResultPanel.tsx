import type { ReactNode } from 'react';
import { Box, Heading, Stack, Text } from '@chakra-ui/react';

interface ResultPanelProps {
  /** `data-testid` of the panel. */
  testId: string;
  /** Its title is `<parts>-title`, its lines `<parts>-text`; default: the panel's test id. */
  parts?: string;
  success: boolean;
  title: string;
  lines: string[];
  children?: ReactNode;
}

function Mark({ success }: { success: boolean }) {
  return (
    <Box
      aria-hidden="true"
      boxSize="16"
      borderRadius="full"
      display="grid"
      placeItems="center"
      bg={success ? 'green.100' : 'red.100'}
      color={success ? 'green.700' : 'red.700'}
    >
      <svg viewBox="0 0 24 24" width="36" height="36" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        {success ? <path d="M5 12.5l4.5 4.5L19 7.5" /> : <path d="M6 6l12 12M18 6L6 18" />}
      </svg>
    </Box>
  );
}

/** The outcome of a payment: a mark, the page's h1, its lines and the way on. */
export function ResultPanel({ testId, parts = testId, success, title, lines, children }: ResultPanelProps) {
  return (
    <Stack
      data-testid={testId}
      data-success={success}
      gap="5"
      align="center"
      textAlign="center"
      borderWidth="1px"
      borderRadius="2xl"
      p={{ base: '6', md: '10' }}
    >
      <Mark success={success} />
      <Heading as="h1" data-testid={`${parts}-title`} size={{ base: '2xl', md: '3xl' }}>
        {title}
      </Heading>
      {lines.map((line) => (
        <Text key={line} data-testid={`${parts}-text`} fontSize={{ base: 'md', md: 'lg' }} color="fg.muted">
          {line}
        </Text>
      ))}
      {children}
    </Stack>
  );
}
