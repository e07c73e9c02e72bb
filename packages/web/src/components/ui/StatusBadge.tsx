import type { ReactNode } from 'react';
import { chakra } from '@chakra-ui/react';

/** The palettes a badge may use (all in the system: components/ui/system.ts). */
export type BadgeTone = 'gray' | 'green' | 'orange' | 'red' | 'blue' | 'purple';

interface StatusBadgeProps {
  tone: BadgeTone;
  testId: string;
  /** Extra data attributes for tests (data-state…). */
  data?: Record<`data-${string}`, string | number | undefined>;
  children: ReactNode;
}

/**
 * A state as a small coloured pill ("Refunded", "Completed"): seen at a glance in a list, and
 * read as its word by screen readers. Plain styles, no recipe (Chakra's badge recipe would add
 * to every Chakra page's start-up for one pill).
 */
export function StatusBadge({ tone, testId, data, children }: StatusBadgeProps) {
  return (
    <chakra.span
      data-testid={testId}
      {...data}
      display="inline-flex"
      alignItems="center"
      px="2"
      py="0.5"
      borderRadius="full"
      borderWidth="1px"
      borderColor={`${tone}.300`}
      bg={`${tone}.100`}
      color={`${tone}.800`}
      fontSize="xs"
      fontWeight="semibold"
      lineHeight="1.4"
      whiteSpace="nowrap"
    >
      {children}
    </chakra.span>
  );
}
