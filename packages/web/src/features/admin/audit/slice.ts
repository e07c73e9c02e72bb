/**
 * The audit log screen's state (/jve/audit, admins): the filters, the page and its entries.
 * Injected into the store with the admin chunk.
 */
import { createSlice, type PayloadAction, type WithSlice } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { AuditEntry } from '../../../services/api/staffScreens';
import { FIRST_PAGE, initialPaging, isPageSize, type Paging } from '../paging';
import type { LoadStatus } from '../slice';

/** What the admin typed: the actor is an e-mail or a user id; every field may be empty. */
export interface AuditFilterForm {
  actor: string;
  action: string;
  targetType: string;
  targetId: string;
}

export const emptyAuditFilter = (): AuditFilterForm => ({ actor: '', action: '', targetType: '', targetId: '' });

export interface AuditLogState {
  filter: AuditFilterForm;
  paging: Paging;
  rows: AuditEntry[];
  status: LoadStatus;
}

const initialState: AuditLogState = { filter: emptyAuditFilter(), paging: initialPaging(), rows: [], status: 'idle' };

const auditLogSlice = createSlice({
  name: 'auditLog',
  initialState,
  reducers: {
    /** The screen opened, with the filters of its address (`?action=…`). */
    auditOpened(state, action: PayloadAction<AuditFilterForm>) {
      state.filter = action.payload;
      state.paging.page = FIRST_PAGE;
      state.status = 'loading';
    },
    auditFiltered(state, action: PayloadAction<AuditFilterForm>) {
      state.filter = action.payload;
      state.paging.page = FIRST_PAGE;
      state.status = 'loading';
    },
    auditPageChosen(state, action: PayloadAction<number>) {
      state.paging.page = Math.max(FIRST_PAGE, action.payload);
      state.status = 'loading';
    },
    auditLimitChosen(state, action: PayloadAction<number>) {
      if (!isPageSize(action.payload)) return;
      state.paging.limit = action.payload;
      state.paging.page = FIRST_PAGE;
      state.status = 'loading';
    },
    auditRefreshed(state) {
      state.status = 'loading';
    },
    auditLoaded(state, action: PayloadAction<{ rows: AuditEntry[]; count: number; pages: number }>) {
      state.rows = action.payload.rows;
      state.paging.count = action.payload.count;
      state.paging.pages = action.payload.pages;
      state.status = 'loaded';
    },
    auditFailed(state) {
      state.status = 'failed';
    },
  },
  selectors: {
    selectAuditLog: (state) => state,
  },
});

declare module '../../../app/rootReducer' {
  // Declaration merging: adds `auditLog` to the store's state type. Empty by design.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface LazyLoadedSlices extends WithSlice<typeof auditLogSlice> {}
}

export const injectedAuditLogSlice = auditLogSlice.injectInto(rootReducer);
export const { selectAuditLog } = injectedAuditLogSlice.selectors;
export const { auditOpened, auditFiltered, auditPageChosen, auditLimitChosen, auditRefreshed, auditLoaded, auditFailed } = auditLogSlice.actions;
