import type { ReactNode } from 'react';
import type { UnknownAction } from '@reduxjs/toolkit';
import { useAppDispatch } from '../../../app/hooks';
import type { PagedList } from '../paging';
import { ListBody } from './ListBody';
import { Pager } from './Pager';

/** The paging actions `pagedListReducers` made for the list (`ordersRefreshed`, `ordersPageChosen`, …). */
export interface PagingActions {
  refreshed: () => UnknownAction;
  pageChosen: (page: number) => UnknownAction;
  limitChosen: (limit: number) => UnknownAction;
}

interface PagedListViewProps {
  /** The pager's test id prefix; the table's is `<testId>-table`. */
  testId: string;
  list: PagedList<unknown>;
  actions: PagingActions;
  /** The count line ('USERS COUNT: 12'), the table's caption, the empty list's text. */
  texts: { count: string; caption: string; empty: string };
  headers: string[];
  /** The page-size control: a selector, or a toggle (orders; spec section 2). */
  sizeControl?: 'toggle' | 'select';
  /** Drawn between the pager and the table (the outbox's preview). */
  between?: ReactNode;
  /** The rows of the page. */
  children: ReactNode;
}

/**
 * A paged admin list as every such page draws it (orders, users, audit, outbox): the pager wired
 * to the list's paging actions, then its table (or the loading, failed or empty state).
 */
export function PagedListView({ testId, list, actions, texts, headers, sizeControl = 'select', between, children }: PagedListViewProps) {
  const dispatch = useAppDispatch();
  return (
    <>
      <Pager
        testId={testId}
        paging={list.paging}
        countText={texts.count}
        sizeControl={sizeControl}
        busy={list.status === 'loading'}
        onRefresh={() => dispatch(actions.refreshed())}
        onPage={(page) => dispatch(actions.pageChosen(page))}
        onLimit={(limit) => dispatch(actions.limitChosen(limit))}
      />
      {between}
      <ListBody testId={`${testId}-table`} caption={texts.caption} status={list.status} headers={headers} rowCount={list.rows.length} emptyText={texts.empty}>
        {children}
      </ListBody>
    </>
  );
}
