/**
 * The account-health screen's state (/jve/health, staff; issue 29): the accounts by health, and
 * the one action on its way (set ok, give time back). Injected into the store with the admin chunk.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { AccountHealth } from '../../../services/api/staffScreens';
import type { LoadStatus } from '../slice';

export interface HealthAction {
  kind: 'setOk' | 'setBroken' | 'extend' | 'confirmReport';
  accountId: number;
  reason?: string;
  /** confirmReport: the buyer's report staff confirm (issue 33). */
  reportId?: number;
}

export interface AccountHealthState {
  rows: AccountHealth[];
  status: LoadStatus;
  /** The outcome of the last action, for the screen to say ('done', or an error code). */
  lastAction?: { accountId: number; kind: HealthAction['kind']; outcome: string };
}

const initialState: AccountHealthState = { rows: [], status: 'idle' };

export const accountHealthSlice = createSlice({
  name: 'accountHealth',
  initialState,
  reducers: {
    healthOpened(state) {
      state.status = 'loading';
    },
    healthLoaded(state, action: PayloadAction<AccountHealth[]>) {
      state.rows = action.payload;
      state.status = 'loaded';
    },
    healthFailed(state) {
      state.status = 'failed';
    },
    healthActed(state, _action: PayloadAction<HealthAction>) {
      state.lastAction = undefined;
    },
    healthActionDone(state, action: PayloadAction<{ accountId: number; kind: HealthAction['kind']; outcome: string }>) {
      state.lastAction = action.payload;
      state.status = 'loading';
    },
  },
  selectors: {
    selectAccountHealth: (state) => state,
  },
});

export const injectedAccountHealthSlice = accountHealthSlice.injectInto(rootReducer);
export const { selectAccountHealth } = injectedAccountHealthSlice.selectors;
export const { healthOpened, healthLoaded, healthFailed, healthActed, healthActionDone } = accountHealthSlice.actions;
