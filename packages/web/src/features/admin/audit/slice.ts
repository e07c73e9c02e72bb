/**
 * The audit log screen's state (/jve/audit, admins): the filters, the page and its entries.
 * Injected into the store with the admin chunk.
 */
import { createSlice, type Draft, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { AuditEntry } from '../../../services/api/staffScreens';
import { FIRST_PAGE, initialPaging, pagedListReducers, type LoadStatus, type Paging } from '../paging';

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

export const auditLogSlice = createSlice({
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
    ...pagedListReducers('audit', (state: Draft<AuditLogState>) => state),
  },
  selectors: {
    selectAuditLog: (state) => state,
  },
});

export const injectedAuditLogSlice = auditLogSlice.injectInto(rootReducer);
export const { selectAuditLog } = injectedAuditLogSlice.selectors;
export const { auditOpened, auditFiltered, auditPageChosen, auditLimitChosen, auditRefreshed, auditLoaded, auditFailed } = auditLogSlice.actions;
