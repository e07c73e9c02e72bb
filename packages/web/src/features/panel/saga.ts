/**
 * The buyer's panel flows (spec sections 2, 4 and 8), started when the panel chunk loads.
 *
 *   open /user/{id} ─► GET user/getuserpanel (id, language) ─ ok ─► profile and both lists
 *                                                            ├ 403 / 404: a refusal / not-found message
 *                                                            └ other failure: only logged (the page offers a retry)
 *   language changes while open ─► asked again in the new language
 *   renewal switch ─► POST subscribe/autorenew ─► the renewal as answered; on without a saved card (paid by
 *       card without the opt-in) ─► POST subscribe/autorenew/card ─► Stripe's page to save one ─► back at
 *       /user/{id}?cardSaved={subscription}&cardSession={session}: switched on (POST subscribe/autorenew/card-saved,
 *       only for that subscription's own unused card page) before the panel loads
 *   invitation form (valid) ─► POST order/setinvatiotaionemail ─► the answered e-mail, read-only
 *                                                              └ failure: its message under the form
 *   'Get verification link' / 'Request Verification Code' ─► GET email/getnvlink | email/getchgptcode
 *       polled (VERIFICATION_POLL_MS, _MAX_POLLS)  ─ a value ─► shown (link button / code), polling ends
 *                                                  ├ none, or a failure (only logged) ─► value cleared, next poll
 *                                                  ├ an answer waiting cannot change (no mailbox server, no
 *                                                  │ mailbox, not allowed…) ─► failed at once, with its text
 *                                                  └ the last poll without one ─► stopped
 *   "It doesn't work" form (valid) ─► POST subscribe/reportproblem ─► the self-help it answers, at once
 *                                                                 └ refused (reported within the hour…): why
 *
 * Everything a visit starts runs in one task: leaving the page cancels it.
 */
import { CARD_RETURN_PARAMS } from '@subshare/core/pages';
import { VERIFICATION_MAX_POLLS, VERIFICATION_POLL_SECONDS } from '@subshare/core/promises';
import { call, delay, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { ApiError, isTemporaryFailure, type ApiErrorCode } from '../../services/api';
import * as panelApi from '../../services/api/panel';
import type { PanelItem, UserPanel } from '../../services/api/panel';
import { logError } from '../../services/log';
import { currentUrlWithout, leaveTo, navigate } from '../../services/navigation';
import { errorTextsOfLanguage, waitForLanguage } from '../language/saga';
import type { LanguageId } from '../language/languages';
import { selectLanguageId } from '../language/selectors';
import { serverErrorText, type ErrorTexts } from '../language/errors';
import { translate } from '../language/texts';
import { languageResolved } from '../language/slice';
import { selectPanelLanguageId, selectPanelStatus } from './selectors';
import {
  autoRenewFailed,
  autoRenewSaved,
  autoRenewToggled,
  renewalCardRequested,
  invitationFailed,
  invitationSaved,
  invitationSubmitted,
  panelClosed,
  panelLoadFailed,
  panelLoadStarted,
  panelLoaded,
  panelOpened,
  panelRequested,
  problemReportFailed,
  problemReportSent,
  problemReportSubmitted,
  verificationFailed,
  verificationPolled,
  verificationRequested,
  verificationStopped,
  type PanelStatus,
  type VerificationKind,
} from './slice';
import { PANEL_TEXTS } from './texts';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isItem = (value: unknown): value is PanelItem => isRecord(value) && typeof value.orderId === 'number';

/** The panel as the page needs it; anything else is a failed load, not a broken page. */
export function checkPanel(value: unknown): UserPanel {
  if (!isRecord(value) || !isRecord(value.user) || typeof value.user.email !== 'string') throw new Error('getuserpanel answered no user');
  const { subscribers, subscribersNotCompleted, subscribersRefunded = [] } = value;
  if (
    !Array.isArray(subscribers) ||
    !Array.isArray(subscribersNotCompleted) ||
    !Array.isArray(subscribersRefunded) ||
    ![...subscribers, ...subscribersNotCompleted, ...subscribersRefunded].every(isItem)
  ) {
    throw new Error('getuserpanel answered no usable lists');
  }
  // A server from before refunds has no refunded list: none.
  return { ...value, subscribersRefunded } as unknown as UserPanel;
}

function failureOf(error: unknown): 'failed' | 'forbidden' | 'notFound' {
  if (error instanceof ApiError && error.status === 403) return 'forbidden';
  if (error instanceof ApiError && error.status === 404) return 'notFound';
  return 'failed';
}

function* loadPanel(userId: number) {
  const languageId: LanguageId = yield call(waitForLanguage);
  yield put(panelLoadStarted(languageId));
  try {
    const answer: unknown = yield call(panelApi.getUserPanel, userId, languageId);
    yield put(panelLoaded(checkPanel(answer)));
  } catch (error) {
    // Spec section 8: a panel load failure is only logged (no snackbar).
    logError('user panel load failed', error);
    yield put(panelLoadFailed(failureOf(error), isTemporaryFailure(error)));
  }
}

/** The language changed while the panel is open: the names of platforms, types and durations follow. */
function* reloadInNewLanguage() {
  const status: PanelStatus = yield select(selectPanelStatus);
  if (status === 'forbidden' || status === 'notFound') return;
  const asked: LanguageId | null = yield select(selectPanelLanguageId);
  const current: LanguageId = yield select(selectLanguageId);
  if (asked !== null && asked !== current) yield put(panelRequested());
}

/** Subscriptions whose renewal switch is on its way; a second click waits for the first. */
const switching = new Set<number>();

/** The automatic renewal switch (issue 28): POST subscribe/autorenew, then the renewal as the server answered it. */
function* saveAutoRenew(action: ReturnType<typeof autoRenewToggled>) {
  const { subscriptionId, enabled } = action.payload;
  if (switching.has(subscriptionId)) return;
  switching.add(subscriptionId);
  try {
    const renewal: panelApi.RenewalState = yield call(panelApi.setAutoRenew, subscriptionId, enabled);
    yield put(autoRenewSaved({ subscriptionId, renewal }));
  } catch (error) {
    logError('automatic renewal not switched', error);
    yield call(failRenewal, subscriptionId, error);
  } finally {
    switching.delete(subscriptionId);
  }
}

/** The server's refusal (4xx) in the page's language under the switch, else the generic text. */
function* failRenewal(subscriptionId: number, error: unknown) {
  const languageId: LanguageId = yield select(selectLanguageId);
  const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
  const message = error instanceof ApiError && error.status >= 400 && error.status < 500 ? serverErrorText(error, texts) : null;
  yield put(autoRenewFailed({ subscriptionId, message: message ?? translate(PANEL_TEXTS, languageId, 'panel.autoRenewFailed') }));
}

/** The switch turned on without a saved card: Stripe's setup page, where the buyer saves one (the browser leaves the shop). */
function* openCardPage(action: ReturnType<typeof renewalCardRequested>) {
  const subscriptionId = action.payload;
  if (switching.has(subscriptionId)) return;
  switching.add(subscriptionId);
  try {
    const { url }: { url: string } = yield call(panelApi.saveRenewalCard, subscriptionId);
    yield call(leaveTo, url);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'card_already_saved') {
      // Saved on an earlier page meanwhile: the switch can turn it on now.
      switching.delete(subscriptionId);
      yield call(saveAutoRenew, autoRenewToggled({ subscriptionId, enabled: true }));
      return;
    }
    logError('card page for automatic renewal not opened', error);
    yield call(failRenewal, subscriptionId, error);
  } finally {
    switching.delete(subscriptionId);
  }
}

/**
 * Back from Stripe's page with the card saved (`?cardSaved={subscription}&cardSession={Checkout
 * Session}`): the subscription and the session Stripe returned. A bare `?cardSaved=` (a crafted
 * link) is no return from Stripe: nothing is asked.
 */
function cardSavedReturn(): { subscriptionId: number; sessionId: string } | null {
  if (typeof window === 'undefined') return null;
  const params = new URL(window.location.href).searchParams;
  const subscription = params.get(CARD_RETURN_PARAMS.subscription);
  const sessionId = params.get(CARD_RETURN_PARAMS.session);
  if (!subscription || !/^\d{1,15}$/.test(subscription) || !sessionId || !/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) return null;
  return { subscriptionId: Number(subscription), sessionId };
}

/**
 * Hands the returned session to the server, which turns renewal on only if it is this
 * subscription's own unused card page; then takes the return off the address (a reload must not ask again).
 */
function* switchOnForSavedCard({ subscriptionId, sessionId }: { subscriptionId: number; sessionId: string }) {
  if (!switching.has(subscriptionId)) {
    switching.add(subscriptionId);
    try {
      const renewal: panelApi.RenewalState = yield call(panelApi.renewalCardSaved, subscriptionId, sessionId);
      yield put(autoRenewSaved({ subscriptionId, renewal }));
    } catch (error) {
      logError('automatic renewal not switched on after the card page', error);
      yield call(failRenewal, subscriptionId, error);
    } finally {
      switching.delete(subscriptionId);
    }
  }
  const without = currentUrlWithout(Object.values(CARD_RETURN_PARAMS));
  if (without !== null) yield call(navigate, without, { replace: true });
}

/** An order whose e-mail is on its way; a second submit of the same order waits for the first. */
const saving = new Set<number>();

function* saveInvitation(action: ReturnType<typeof invitationSubmitted>) {
  const { orderId, email } = action.payload;
  if (saving.has(orderId)) return;
  saving.add(orderId);
  try {
    const answer: { email?: unknown } | undefined = yield call(panelApi.setInvitationEmail, orderId, email);
    const stored = typeof answer?.email === 'string' && answer.email ? answer.email : email;
    yield put(invitationSaved({ orderId, email: stored }));
  } catch (error) {
    logError('invitation e-mail not saved', error);
    const languageId: LanguageId = yield select(selectLanguageId);
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    const message = error instanceof ApiError && error.status >= 400 && error.status < 500 ? serverErrorText(error, texts) : null;
    yield put(invitationFailed({ orderId, message: message ?? translate(PANEL_TEXTS, languageId, 'panel.invitationFailed') }));
    // Already set (another tab) or the order changed meanwhile: show the panel as it now stands.
    if (error instanceof ApiError && error.status === 409) yield put(panelRequested());
  } finally {
    saving.delete(orderId);
  }
}

/** Spec section 9: the first poll at once, then one every VERIFICATION_POLL_SECONDS, at most VERIFICATION_MAX_POLLS (core's promises: the server's read limit is sized on them). */
export const VERIFICATION_POLL_MS = VERIFICATION_POLL_SECONDS * 1000;
export { VERIFICATION_MAX_POLLS };

/** Subscriptions being polled; a second click while polling starts nothing. */
const polling = new Set<number>();

function fetchVerification(kind: VerificationKind, subscriptionId: number): Promise<string | null> {
  return kind === 'link'
    ? panelApi.getHouseholdLink(subscriptionId).then((answer) => (typeof answer?.link === 'string' && answer.link ? answer.link : null))
    : panelApi.getLoginCode(subscriptionId).then((answer) => (typeof answer?.code === 'string' && answer.code ? answer.code : null));
}

/**
 * Answers that no later poll can change: mailboxes not read on this shop (no MAILBOX_IMAP_URL),
 * no mailbox behind the account, the wrong kind of platform, a subscription no longer active or
 * not the viewer's. Polling them for two minutes would only hide the reason.
 */
const FINAL_CODES: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  'mailbox_reading_off',
  'no_mailbox',
  'wrong_platform_type',
  'subscription_not_active',
  'forbidden',
  'not_found',
]);

function isFinal(error: unknown): error is ApiError {
  return error instanceof ApiError && ((error.code !== undefined && FINAL_CODES.has(error.code)) || error.status === 403 || error.status === 404);
}

function* failVerification(subscriptionId: number, error: ApiError) {
  const languageId: LanguageId = yield select(selectLanguageId);
  const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
  const message = serverErrorText(error, texts) ?? translate(PANEL_TEXTS, languageId, 'panel.verificationFailed');
  yield put(verificationFailed({ subscriptionId, message, code: error.code ?? null, serverMessage: error.serverMessage ?? null }));
}

function* pollVerification(action: ReturnType<typeof verificationRequested>) {
  const { subscriptionId, kind } = action.payload;
  if (polling.has(subscriptionId)) return;
  polling.add(subscriptionId);
  try {
    for (let poll = 1; poll <= VERIFICATION_MAX_POLLS; poll += 1) {
      let value: string | null = null;
      try {
        value = yield call(fetchVerification, kind, subscriptionId);
      } catch (error) {
        // Spec section 8: a verification fetch failure is only logged; polling goes on, unless
        // the answer cannot change by waiting: then the panel says so at once.
        logError('verification fetch failed', error);
        if (isFinal(error)) {
          yield call(failVerification, subscriptionId, error);
          return;
        }
      }
      yield put(verificationPolled({ subscriptionId, value }));
      if (value) return;
      if (poll < VERIFICATION_MAX_POLLS) yield delay(VERIFICATION_POLL_MS);
    }
    yield put(verificationStopped(subscriptionId));
  } finally {
    polling.delete(subscriptionId);
  }
}

/** "It doesn't work" (issue 33): the report, then the self-help it answers; a refusal says why (e.g. reported within the hour). */
function* sendProblemReport(action: ReturnType<typeof problemReportSubmitted>) {
  const { subscriptionId, kind, note } = action.payload;
  try {
    const help: panelApi.ProblemHelp = yield call(panelApi.reportProblem, subscriptionId, kind, note);
    yield put(problemReportSent(help));
  } catch (error) {
    logError('problem report not sent', error);
    const languageId: LanguageId = yield select(selectLanguageId);
    const texts: ErrorTexts | null = yield call(errorTextsOfLanguage);
    const message = error instanceof ApiError && error.status >= 400 && error.status < 500 ? serverErrorText(error, texts) : null;
    yield put(problemReportFailed({ subscriptionId, message: message ?? translate(PANEL_TEXTS, languageId, 'panel.problemFailed') }));
  }
}

/** One visit to /user/{id}, from mount to unmount. */
function* panelVisit(userId: number) {
  yield takeLatest(panelRequested.type, loadPanel, userId);
  yield takeEvery(languageResolved.type, reloadInNewLanguage);
  yield takeEvery(invitationSubmitted.type, saveInvitation);
  yield takeEvery(autoRenewToggled.type, saveAutoRenew);
  yield takeEvery(renewalCardRequested.type, openCardPage);
  yield takeEvery(verificationRequested.type, pollVerification);
  yield takeEvery(problemReportSubmitted.type, sendProblemReport);
  // Switched on before the panel is asked, so the panel shows the answer, not the state before it.
  const cardSaved = cardSavedReturn();
  if (cardSaved !== null) yield call(switchOnForSavedCard, cardSaved);
  yield put(panelRequested());
}

function* panelLifecycle(action: { type: string; payload?: unknown }) {
  if (action.type === panelOpened.type && typeof action.payload === 'number') yield call(panelVisit, action.payload);
}

export function* panelSaga() {
  yield takeLatest([panelOpened.type, panelClosed.type], panelLifecycle);
}
