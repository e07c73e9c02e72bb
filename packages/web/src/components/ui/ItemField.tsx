import type { ReactNode } from 'react';
import { Box, chakra } from '@chakra-ui/react';

/** A labelled value of an item ("Order ID 42"): a dt/dd pair of the item's list. */
export function ItemField({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Box minW="0">
      <chakra.dt fontSize="sm" color="fg.muted">
        {label}
      </chakra.dt>
      <chakra.dd data-testid={testId} m="0" fontWeight="semibold" overflowWrap="anywhere">
        {children}
      </chakra.dd>
    </Box>
  );
}
