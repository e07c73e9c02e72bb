import type { ReactNode } from 'react';
import { Box, HStack, Spinner, Table, Text } from '@chakra-ui/react';
import type { LoadStatus } from '../slice';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

interface ListBodyProps {
  /** `data-testid` of the table; the empty and failed states are `<testId>-empty` and `<testId>-failed`. */
  testId: string;
  caption: string;
  status: LoadStatus;
  headers: string[];
  rowCount: number;
  /** Spec section 2: NO ORDERS / NO USERS. */
  emptyText: string;
  children: ReactNode;
}

/**
 * The table of an admin list, or what stands in for it: the first load's spinner, the failed
 * load's note (spec section 8: list failures are only logged; Refresh tries again), the empty
 * list's text. Wide tables scroll sideways on phones.
 */
export function ListBody({ testId, caption, status, headers, rowCount, emptyText, children }: ListBodyProps) {
  const t = useT(ADMIN_TEXTS);
  if (status === 'failed') {
    return (
      <Box data-testid={`${testId}-failed`} role="alert" p="4" borderRadius="md" bg="bg.error" color="fg.error">
        {t('admin.loadFailed')}
      </Box>
    );
  }
  if ((status === 'loading' || status === 'idle') && rowCount === 0) {
    return (
      <HStack data-testid={`${testId}-loading`} role="status" gap="3" py="6" color="fg.muted">
        <Spinner size="sm" />
        <Text>{t('admin.loading')}</Text>
      </HStack>
    );
  }
  if (rowCount === 0) {
    return (
      <Box
        data-testid={`${testId}-empty`}
        p="6"
        textAlign="center"
        fontWeight="bold"
        letterSpacing="wider"
        color="fg.muted"
        borderWidth="1px"
        borderRadius="md"
      >
        {emptyText}
      </Box>
    );
  }
  return (
    <Table.ScrollArea borderWidth="1px" borderRadius="md" whiteSpace="normal">
      {/* keep-all: a Korean word is not split between syllables when a phone's column wraps it. */}
      <Table.Root data-testid={testId} data-rows={rowCount} aria-busy={status === 'loading'} size="sm" interactive wordBreak="keep-all">
        <Table.Caption srOnly>{caption}</Table.Caption>
        <Table.Header>
          <Table.Row>
            {headers.map((header) => (
              <Table.ColumnHeader key={header} whiteSpace="nowrap">
                {header}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
