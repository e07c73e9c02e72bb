import { Button, Flex, Group, NativeSelect, Text, chakra } from '@chakra-ui/react';
import { canGoBack, canGoForward, PAGE_SIZES, type Paging } from '../paging';
import { ADMIN_TEXTS } from '../texts';
import { useT } from '../../language/useT';

interface PagerProps {
  /** Prefix of the controls' test ids: `<prefix>-refresh`, `-previous`, `-next`, `-size`, `-count`, `-page`. */
  testId: string;
  paging: Paging;
  /** The count line, e.g. 'USERS COUNT: 12'. */
  countText: string;
  /** Spec section 2: a page-size toggle (orders) or a selector (users). */
  sizeControl: 'toggle' | 'select';
  busy: boolean;
  onRefresh: () => void;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

/**
 * Refresh, Previous, Next, the page size and the count of an admin list (spec sections 2, 4
 * and 9): Previous is disabled on page 1, Next when the page is the last; another size goes
 * back to page 1 (the slice).
 */
export function Pager({ testId, paging, countText, sizeControl, busy, onRefresh, onPage, onLimit }: PagerProps) {
  const t = useT(ADMIN_TEXTS);
  const sizeLabel = t('admin.pageSize');
  return (
    <Flex data-testid={`${testId}-pager`} data-page={paging.page} data-pages={paging.pages} data-limit={paging.limit} align="center" gap="3" wrap="wrap">
      <Text data-testid={`${testId}-count`} fontWeight="semibold" letterSpacing="wide">
        {countText}
      </Text>
      <Text data-testid={`${testId}-page`} color="fg.muted" fontSize="sm">
        {t('admin.pageOf', { page: paging.page, pages: Math.max(paging.pages, 1) })}
      </Text>
      <Flex gap="2" wrap="wrap" ms={{ base: '0', md: 'auto' }} align="center">
        <Button data-testid={`${testId}-refresh`} size="sm" variant="outline" onClick={onRefresh} disabled={busy}>
          {t('admin.refresh')}
        </Button>
        <Button data-testid={`${testId}-previous`} size="sm" variant="outline" onClick={() => onPage(paging.page - 1)} disabled={!canGoBack(paging)}>
          {t('admin.previous')}
        </Button>
        <Button data-testid={`${testId}-next`} size="sm" variant="outline" onClick={() => onPage(paging.page + 1)} disabled={!canGoForward(paging)}>
          {t('admin.next')}
        </Button>
        {sizeControl === 'toggle' ? (
          <Group role="group" aria-label={sizeLabel} attached data-testid={`${testId}-size`}>
            {PAGE_SIZES.map((size) => (
              <Button
                key={size}
                data-testid={`${testId}-size-${size}`}
                size="sm"
                variant={paging.limit === size ? 'solid' : 'outline'}
                aria-pressed={paging.limit === size}
                onClick={() => paging.limit !== size && onLimit(size)}
              >
                {size}
              </Button>
            ))}
          </Group>
        ) : (
          <Flex as="label" align="center" gap="2" fontSize="sm">
            <chakra.span color="fg.muted">{sizeLabel}</chakra.span>
            <NativeSelect.Root size="sm" w="auto">
              <NativeSelect.Field data-testid={`${testId}-size`} value={paging.limit} onChange={(event) => onLimit(Number(event.currentTarget.value))}>
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Flex>
        )}
      </Flex>
    </Flex>
  );
}
