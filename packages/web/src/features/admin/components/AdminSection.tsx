import type { ReactNode } from 'react';
import { Flex, Heading } from '@chakra-ui/react';
import { usePageMeta } from '../../../components/ui/usePageMeta';

interface AdminSectionProps {
  testId: string;
  title: string;
  /** Controls beside the title (export, refresh…). */
  actions?: ReactNode;
  children?: ReactNode;
  /** Extra data attributes for tests and styling (data-status…). */
  data?: Record<`data-${string}`, string | number | undefined>;
}

/** One admin screen: its h1 (also the document title) and its content. Admin pages are never indexed. */
export function AdminSection({ testId, title, actions, children, data }: AdminSectionProps) {
  usePageMeta({ title, robots: 'noindex' });
  return (
    <section data-testid={testId} aria-labelledby={`${testId}-title`} {...data}>
      <Flex align="center" justify="space-between" gap="3" wrap="wrap" mb="5">
        <Heading as="h1" id={`${testId}-title`} size="2xl">
          {title}
        </Heading>
        {actions}
      </Flex>
      {children}
    </section>
  );
}
