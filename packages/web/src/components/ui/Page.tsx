import type { ReactNode } from 'react';
import { Box, Heading, Text } from '@chakra-ui/react';
import { usePageMeta } from './usePageMeta';

interface PageProps {
  /** `data-testid` of the page root, e.g. "page-support". */
  testId: string;
  /** The page's one h1, also its document title. */
  title: string;
  /** A lead paragraph under the title; also the meta description unless `description` is given. */
  intro?: string;
  /** The meta description. */
  description?: string;
  /** Keeps the page out of search results (not-found). */
  noindex?: boolean;
  /** A storefront page search engines should index (static pages): drops a robots tag a previous page left. */
  indexable?: boolean;
  children?: ReactNode;
}

/** A titled page body with the storefront's reading width. */
export function Page({ testId, title, intro, description, noindex, indexable, children }: PageProps) {
  usePageMeta({ title, description: description ?? intro, robots: noindex ? 'noindex' : indexable ? 'index' : undefined });
  return (
    <Box data-testid={testId} maxW="3xl" mx="auto" px={{ base: '4', md: '6' }} py={{ base: '8', md: '12' }}>
      <Heading as="h1" size={{ base: '2xl', md: '3xl' }} mb="6">
        {title}
      </Heading>
      {intro && (
        <Text data-testid="page-intro" fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" mb="8">
          {intro}
        </Text>
      )}
      {children}
    </Box>
  );
}
