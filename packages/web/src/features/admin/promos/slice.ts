/**
 * The promotion codes page's state (/jve/promos, admins): the codes, the one being edited, and
 * the save on its way with the server's refusal (already translated, shown beside the form).
 * Injected into the store with the admin chunk.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../../app/rootReducer';
import type { CreatePromo, PromoCode, UpdatePromo } from '../../../services/api/promoScreens';
import type { LoadStatus } from '../slice';

export interface PromosPageState {
  status: LoadStatus;
  codes: PromoCode[];
  /** The code whose form is open; null: the form makes a new code. */
  editing: number | null;
  saving: boolean;
  /** The last refused save's message; null after a success. */
  error: string | null;
  /** Counts successful saves: the form starts afresh after each. */
  saves: number;
}

const initialState: PromosPageState = { status: 'idle', codes: [], editing: null, saving: false, error: null, saves: 0 };

export const promosPageSlice = createSlice({
  name: 'promosPage',
  initialState,
  reducers: {
    promosOpened(state) {
      state.status = 'loading';
      state.error = null;
    },
    promosLoaded(state, action: PayloadAction<PromoCode[]>) {
      state.status = 'loaded';
      state.codes = action.payload;
    },
    promosFailed(state) {
      state.status = 'failed';
    },
    promoEditStarted(state, action: PayloadAction<number | null>) {
      state.editing = action.payload;
      state.error = null;
    },
    promoCreateRequested(state, _action: PayloadAction<CreatePromo>) {
      state.saving = true;
      state.error = null;
    },
    promoUpdateRequested(state, _action: PayloadAction<UpdatePromo>) {
      state.saving = true;
      state.error = null;
    },
    promoSaved(state) {
      state.saving = false;
      state.editing = null;
      state.saves += 1;
    },
    promoRefused(state, action: PayloadAction<string>) {
      state.saving = false;
      state.error = action.payload;
    },
  },
  selectors: {
    selectPromosPage: (state) => state,
  },
});

export const injectedPromosPageSlice = promosPageSlice.injectInto(rootReducer);
export const { selectPromosPage } = injectedPromosPageSlice.selectors;
export const { promosOpened, promosLoaded, promosFailed, promoEditStarted, promoCreateRequested, promoUpdateRequested, promoSaved, promoRefused } =
  promosPageSlice.actions;
