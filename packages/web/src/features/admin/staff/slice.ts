/**
 * The staff page's state (/jve/staff, admins): the moderators and admins, and the role change on
 * its way with the server's refusal of the last one (already translated, shown beside the form).
 * Injected into the store with the admin chunk.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { StaffMember } from '../../../services/api/staffScreens';
import type { LoadStatus } from '../slice';

export type StaffRole = 0 | 1 | 2;

export interface StaffPageState {
  status: LoadStatus;
  members: StaffMember[];
  /** The e-mail whose role change is on its way; null: none. */
  changing: string | null;
  /** The last refused change's message (e.g. the last admin); null after a success. */
  error: string | null;
  /** Counts successful changes: the form starts afresh after each. */
  changes: number;
}

const initialState: StaffPageState = { status: 'idle', members: [], changing: null, error: null, changes: 0 };

export const staffPageSlice = createSlice({
  name: 'staffPage',
  initialState,
  reducers: {
    staffOpened(state) {
      state.status = 'loading';
      state.error = null;
    },
    staffLoaded(state, action: PayloadAction<StaffMember[]>) {
      state.status = 'loaded';
      state.members = action.payload;
    },
    staffFailed(state) {
      state.status = 'failed';
    },
    roleChangeRequested(state, action: PayloadAction<{ email: string; role: StaffRole }>) {
      state.changing = action.payload.email;
      state.error = null;
    },
    roleChanged(state) {
      state.changing = null;
      state.changes += 1;
    },
    roleChangeRefused(state, action: PayloadAction<string>) {
      state.changing = null;
      state.error = action.payload;
    },
  },
  selectors: {
    selectStaffPage: (state) => state,
  },
});

export const injectedStaffPageSlice = staffPageSlice.injectInto(rootReducer);
export const { selectStaffPage } = injectedStaffPageSlice.selectors;
export const { staffOpened, staffLoaded, staffFailed, roleChangeRequested, roleChanged, roleChangeRefused } = staffPageSlice.actions;
