/**
 * The outbox screen's state (/jve/outbox, moderators and admins): the status filter, the page and
 * its e-mails, the e-mail previewed (with its bodies, a code masked by the server) and the
 * retries on their way. Injected into the store with the admin chunk.
 */
import { createSlice, type Draft, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { OutboxEmail, OutboxEmailSummary } from '../../../services/api/staffScreens';
import { FIRST_PAGE, initialPaging, pagedListReducers, type LoadStatus, type Paging } from '../paging';

export type OutboxStatusFilter = OutboxEmailSummary['status'] | '';

export interface OutboxState {
  filter: OutboxStatusFilter;
  paging: Paging;
  rows: OutboxEmailSummary[];
  status: LoadStatus;
  preview: { id: number; status: LoadStatus; email: OutboxEmail | null } | null;
  /** E-mails whose retry is on its way: their button waits. */
  retrying: number[];
}

const initialState: OutboxState = { filter: '', paging: initialPaging(), rows: [], status: 'idle', preview: null, retrying: [] };

export const outboxSlice = createSlice({
  name: 'outbox',
  initialState,
  reducers: {
    outboxOpened(state) {
      state.status = 'loading';
      state.preview = null;
    },
    outboxFiltered(state, action: PayloadAction<OutboxStatusFilter>) {
      state.filter = action.payload;
      state.paging.page = FIRST_PAGE;
      state.status = 'loading';
    },
    ...pagedListReducers('outbox', (state: Draft<OutboxState>) => state),
    previewRequested(state, action: PayloadAction<number>) {
      state.preview = { id: action.payload, status: 'loading', email: null };
    },
    previewLoaded(state, action: PayloadAction<OutboxEmail>) {
      if (state.preview?.id === action.payload.id) state.preview = { id: action.payload.id, status: 'loaded', email: action.payload };
    },
    previewFailed(state, action: PayloadAction<number>) {
      if (state.preview?.id === action.payload) state.preview.status = 'failed';
    },
    previewClosed(state) {
      state.preview = null;
    },
    retryRequested(state, action: PayloadAction<number>) {
      if (!state.retrying.includes(action.payload)) state.retrying.push(action.payload);
    },
    retryFinished(state, action: PayloadAction<number>) {
      state.retrying = state.retrying.filter((id) => id !== action.payload);
    },
  },
  selectors: {
    selectOutbox: (state) => state,
  },
});

export const injectedOutboxSlice = outboxSlice.injectInto(rootReducer);
export const { selectOutbox } = injectedOutboxSlice.selectors;
export const {
  outboxOpened,
  outboxFiltered,
  outboxPageChosen,
  outboxLimitChosen,
  outboxRefreshed,
  outboxLoaded,
  outboxFailed,
  previewRequested,
  previewLoaded,
  previewFailed,
  previewClosed,
  retryRequested,
  retryFinished,
} = outboxSlice.actions;
