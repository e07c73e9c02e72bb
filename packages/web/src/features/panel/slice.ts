/**
 * The buyer's panel (spec sections 2 and 4): whose panel is open, its data in the language it
 * was asked in, and the invitation e-mails being saved. Injected into the store when the panel
 * chunk loads; nothing here is in the storefront's first download.
 */
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { rootReducer } from '../../app/rootReducer';
import type { ApiErrorCode } from '../../services/api';
import type { ProblemHelp, ProblemKind, RenewalState, UserPanel } from '../../services/api/panel';
import type { LanguageId } from '../language/languages';

/**
 * loading: asked (the previous data, if any, stays shown); failed: the load failed (only
 * logged, spec section 8; the page offers a retry); forbidden: another buyer's panel (403);
 * notFound: no such user, or an address that is not a user id.
 */
export type PanelStatus = 'idle' | 'loading' | 'loaded' | 'failed' | 'forbidden' | 'notFound';

export type PanelFailure = Extract<PanelStatus, 'failed' | 'forbidden' | 'notFound'>;

export interface InvitationState {
  status: 'submitting' | 'failed';
  /** What went wrong (the server's message when it gave one); null while submitting. */
  message: string | null;
}

/** What the mailbox holds for a subscription: a household link (video) or a login code (AI chat). */
export type VerificationKind = 'link' | 'code';

/**
 * The verification fetch of one subscription (spec section 4): polling while the polls run
 * (the saga's VERIFICATION_POLL_MS and VERIFICATION_MAX_POLLS), found when an answer had the value, stopped
 * after the last poll without one, failed at once on an answer that waiting cannot change (no
 * mailbox server configured, no mailbox behind the account…). `value` is cleared by an answer
 * without one.
 */
export interface VerificationState {
  kind: VerificationKind;
  status: 'polling' | 'found' | 'stopped' | 'failed';
  value: string | null;
  polls: number;
  /** How many times "Try again" asked once more after a failure, so the answer can say it was asked (issue 35). */
  retries: number;
  /** failed: why, in the interface language, and the server's code and own message (staff see it: it names settings). */
  failure?: { message: string; code: ApiErrorCode | null; serverMessage: string | null };
}

/** A buyer's "it doesn't work" report of one subscription (issue 33): on its way, answered with self-help, or refused. */
export interface ProblemReportState {
  status: 'submitting' | 'sent' | 'failed';
  /** failed: why, in the interface language. */
  message: string | null;
  /** sent: the self-help the server answered. */
  help: ProblemHelp | null;
}

export interface PanelState {
  /** The user whose panel is open; null when the address names none. */
  userId: number | null;
  status: PanelStatus;
  /** failed: whether trying again may help (no answer, or a 5xx); not after a 4xx refusal. */
  retryable: boolean;
  panel: UserPanel | null;
  /** The language of the latest request (a language change asks again). */
  languageId: LanguageId | null;
  /** Invitation e-mails on their way, by order id. */
  invitations: Record<number, InvitationState>;
  /** Verification fetches, by subscription id. */
  verifications: Record<number, VerificationState>;
  /** Automatic renewal switches on their way (or refused), by subscription id. */
  autoRenewals: Record<number, InvitationState>;
  /** Problem reports, by subscription id. */
  problemReports: Record<number, ProblemReportState>;
}

const initialState: PanelState = {
  userId: null,
  status: 'idle',
  retryable: true,
  panel: null,
  languageId: null,
  invitations: {},
  verifications: {},
  autoRenewals: {},
  problemReports: {},
};

export const panelSlice = createSlice({
  name: 'panel',
  initialState,
  reducers: {
    /** /user/{id} mounted (null: the id is not a user id). The saga loads the panel. */
    panelOpened: (_state, action: PayloadAction<number | null>) => ({
      ...initialState,
      userId: action.payload,
      status: action.payload === null ? ('notFound' as const) : ('loading' as const),
    }),
    panelClosed: () => initialState,
    /** The failure message's retry (also how the saga asks again on a language change). */
    panelRequested() {},
    panelLoadStarted(state, action: PayloadAction<LanguageId>) {
      state.status = 'loading';
      state.languageId = action.payload;
    },
    panelLoaded(state, action: PayloadAction<UserPanel>) {
      state.status = 'loaded';
      state.panel = action.payload;
    },
    panelLoadFailed: {
      reducer(state, action: PayloadAction<PanelFailure, string, { retryable: boolean }>) {
        state.status = action.payload;
        state.retryable = action.meta.retryable;
        // Nothing of a panel the viewer may not see stays on screen.
        if (action.payload !== 'failed') state.panel = null;
      },
      prepare: (failure: PanelFailure, retryable = true) => ({ payload: failure, meta: { retryable } }),
    },

    /** The invitation form, valid: the e-mail goes to the server (saga). */
    invitationSubmitted(state, action: PayloadAction<{ orderId: number; email: string }>) {
      state.invitations[action.payload.orderId] = { status: 'submitting', message: null };
    },
    /** Saved: from now on the e-mail the server answered is shown read-only (spec section 4). */
    invitationSaved(state, action: PayloadAction<{ orderId: number; email: string }>) {
      const { orderId, email } = action.payload;
      delete state.invitations[orderId];
      for (const item of state.panel?.subscribersNotCompleted ?? []) {
        if (item.orderId === orderId) item.invitationEmail = email;
      }
    },
    invitationFailed(state, action: PayloadAction<{ orderId: number; message: string }>) {
      state.invitations[action.payload.orderId] = { status: 'failed', message: action.payload.message };
    },

    /** The automatic renewal switch: the choice goes to the server (saga). */
    autoRenewToggled(state, action: PayloadAction<{ subscriptionId: number; enabled: boolean }>) {
      state.autoRenewals[action.payload.subscriptionId] = { status: 'submitting', message: null };
    },
    /** The switch turned on without a saved card: the saga opens Stripe's page to save one. */
    renewalCardRequested(state, action: PayloadAction<number>) {
      state.autoRenewals[action.payload] = { status: 'submitting', message: null };
    },
    /** Saved: the subscription shows its renewal as the server answered it. */
    autoRenewSaved(state, action: PayloadAction<{ subscriptionId: number; renewal: RenewalState }>) {
      const { subscriptionId, renewal } = action.payload;
      delete state.autoRenewals[subscriptionId];
      for (const item of state.panel?.subscribers ?? []) {
        if (item.subscribeId === subscriptionId) item.autoRenew = renewal;
      }
    },
    autoRenewFailed(state, action: PayloadAction<{ subscriptionId: number; message: string }>) {
      state.autoRenewals[action.payload.subscriptionId] = { status: 'failed', message: action.payload.message };
    },

    /** The "it doesn't work" form, valid: the report goes to the server (saga). */
    problemReportSubmitted(state, action: PayloadAction<{ subscriptionId: number; kind: ProblemKind; note?: string }>) {
      state.problemReports[action.payload.subscriptionId] = { status: 'submitting', message: null, help: null };
    },
    problemReportSent(state, action: PayloadAction<ProblemHelp>) {
      state.problemReports[action.payload.subscriptionId] = { status: 'sent', message: null, help: action.payload };
    },
    problemReportFailed(state, action: PayloadAction<{ subscriptionId: number; message: string }>) {
      state.problemReports[action.payload.subscriptionId] = { status: 'failed', message: action.payload.message, help: null };
    },

    /** 'Get verification link' / 'Request Verification Code': the saga polls (a second click while polling changes nothing). */
    verificationRequested(state, action: PayloadAction<{ subscriptionId: number; kind: VerificationKind }>) {
      const { subscriptionId, kind } = action.payload;
      const previous = state.verifications[subscriptionId];
      if (previous?.status === 'polling') return;
      // "Try again" after a failure: an unchanged answer would look as if nothing happened, so it is counted.
      const retries = previous?.status === 'failed' ? previous.retries + 1 : 0;
      state.verifications[subscriptionId] = { kind, status: 'polling', value: null, polls: 0, retries };
    },
    /** One poll answered (null: nothing yet, or the poll failed; the value is cleared). */
    verificationPolled(state, action: PayloadAction<{ subscriptionId: number; value: string | null }>) {
      const entry = state.verifications[action.payload.subscriptionId];
      if (!entry) return;
      entry.polls += 1;
      entry.value = action.payload.value;
      if (action.payload.value) entry.status = 'found';
    },
    /** An answer that no later poll can change: polling ends and the panel says why. */
    verificationFailed(state, action: PayloadAction<{ subscriptionId: number; message: string; code: ApiErrorCode | null; serverMessage: string | null }>) {
      const { subscriptionId, ...failure } = action.payload;
      const entry = state.verifications[subscriptionId];
      if (!entry) return;
      entry.polls += 1;
      entry.value = null;
      entry.status = 'failed';
      entry.failure = failure;
    },
    /** The last poll went by without a value. */
    verificationStopped(state, action: PayloadAction<number>) {
      const entry = state.verifications[action.payload];
      if (entry && entry.status === 'polling') entry.status = 'stopped';
    },
  },
  selectors: {
    selectPanelUserId: (state) => state.userId,
    selectPanelStatus: (state) => state.status,
    selectPanelRetryable: (state) => state.retryable,
    selectPanel: (state) => state.panel,
    selectPanelLanguageId: (state) => state.languageId,
    selectInvitations: (state) => state.invitations,
    selectVerifications: (state) => state.verifications,
    selectAutoRenewals: (state) => state.autoRenewals,
    selectProblemReports: (state) => state.problemReports,
  },
});

/** The slice, added to the store's reducer now that its chunk has loaded. */
export const injectedPanelSlice = panelSlice.injectInto(rootReducer);

export const {
  panelOpened,
  panelClosed,
  panelRequested,
  panelLoadStarted,
  panelLoaded,
  panelLoadFailed,
  invitationSubmitted,
  invitationSaved,
  autoRenewToggled,
  autoRenewSaved,
  autoRenewFailed,
  renewalCardRequested,
  invitationFailed,
  verificationRequested,
  verificationPolled,
  verificationFailed,
  verificationStopped,
  problemReportSubmitted,
  problemReportSent,
  problemReportFailed,
} = panelSlice.actions;
