import type { ReactNode } from 'react';
import { Box, Heading } from '@chakra-ui/react';

interface PageProps {
  /** `data-testid` of the page root, e.g. "page-support". */
  testId: string;
  title: string;
  children?: ReactNode;
}

/** A titled page body with the storefront's reading width. */
export function Page({ testId, title, children }: PageProps) {
  return (
    <Box data-testid={testId} maxW="3xl" mx="auto" px={{ base: '4', md: '6' }} py={{ base: '8', md: '12' }}>
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} mb="6">
        {title}
      </Heading>
      {children}
    </Box>
  );
}
