import { expect } from 'chai';
import { runSaga, stdChannel, type Saga } from 'redux-saga';
import { call, delay } from 'redux-saga/effects';

/**
 * The panel's verification polling (spec section 9: the first poll at once, then one every 10 s,
 * at most 12) run by redux-saga itself, with time driven by the test: every `delay` the saga
 * yields waits on a clock that only the test moves, so 12 polls take no real time at all. The
 * server is a stand-in `fetch` that answers what each test scripts.
 */

// The web's sources use the bundler's extensionless imports, which the server's type-check does
// not follow; tsx loads them at run time. These are the few shapes the test uses.
interface Action {
  type: string;
  payload?: unknown;
}
interface PanelSagaModule {
  panelSaga: Saga;
  VERIFICATION_POLL_MS: number;
  VERIFICATION_MAX_POLLS: number;
}
interface PanelSliceModule {
  panelOpened: (userId: number) => Action;
  panelClosed: () => Action;
  verificationRequested: (payload: { subscriptionId: number; kind: 'link' | 'code' }) => Action;
  verificationPolled: { type: string };
  verificationFailed: { type: string };
  verificationStopped: { type: string };
}
const WEB_PANEL = '../../packages/web/src/features/panel/';
const sagaModule = () => import(`${WEB_PANEL}saga.ts`) as Promise<PanelSagaModule>;
const sliceModule = () => import(`${WEB_PANEL}slice.ts`) as Promise<PanelSliceModule>;

/** A clock for `delay`: each delay ends when the test has moved the clock past its end. */
class DrivenTime {
  now = 0;
  /** The length of every delay the saga asked for, in order. */
  readonly asked: number[] = [];
  private pending: Array<{ until: number; resolve: () => void }> = [];

  wait(ms: number): Promise<void> {
    this.asked.push(ms);
    return new Promise((resolve) => this.pending.push({ until: this.now + ms, resolve }));
  }

  get waiting(): number {
    return this.pending.length;
  }

  /** Moves the clock on; the delays that end by then end, and the saga runs until it waits again. */
  async advance(ms: number): Promise<void> {
    this.now += ms;
    const due = this.pending.filter((entry) => entry.until <= this.now);
    this.pending = this.pending.filter((entry) => entry.until > this.now);
    for (const entry of due) entry.resolve();
    await settle();
  }
}

/** Lets promises and the saga's reactions to them run (the fake server answers at once). */
const settle = async () => {
  for (let round = 0; round < 10; round += 1) await new Promise((resolve) => setImmediate(resolve));
};

const delayEffect = delay(0) as unknown as { type: string; payload: { fn: unknown } };

interface Poll {
  at: number;
  path: string;
  subscriptionId: string | null;
}

/** The panel saga on a channel of its own, its delays on driven time, its HTTP calls on a scripted fetch. */
async function startPanel(answers: (poll: number) => { status: number; body: unknown }) {
  const { panelSaga } = await sagaModule();
  const slice = await sliceModule();
  const time = new DrivenTime();
  const polls: Poll[] = [];
  const dispatched: Action[] = [];
  const channel = stdChannel<Action>();

  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: string | URL | Request) => {
    const url = new URL(String(input), 'http://shop.test');
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (url.pathname === '/api/user/getuserpanel') return json(200, { user: { email: 'buyer@example.test' }, subscribers: [], subscribersNotCompleted: [] });
    polls.push({ at: time.now, path: url.pathname, subscriptionId: url.searchParams.get('subscriptionId') });
    const { status, body } = answers(polls.length);
    return json(status, body);
  }) as typeof fetch;

  const task = runSaga(
    {
      channel,
      dispatch: (action: Action) => {
        dispatched.push(action);
        channel.put(action);
      },
      getState: () => ({ language: { languageId: 1, resolved: true } }),
      // Every delay the saga yields waits on the driven clock instead of a real timer.
      effectMiddlewares: [
        (next: (effect: unknown) => void) => (effect: unknown) => {
          const candidate = effect as { type?: string; payload?: { fn?: unknown; args?: unknown[] } };
          if (candidate?.type === 'CALL' && candidate.payload && candidate.payload.fn === delayEffect.payload.fn) {
            next(call([time, time.wait], Number(candidate.payload.args?.[0])));
            return;
          }
          next(effect);
        },
      ],
    },
    panelSaga,
  );
  const put = async (action: Action) => {
    channel.put(action);
    await settle();
  };
  await put(slice.panelOpened(41));
  return {
    time,
    polls,
    slice,
    put,
    /** The values the saga reported per poll of this subscription, and whether it said it stopped. */
    polled: (subscriptionId: number) =>
      dispatched
        .filter((action) => action.type === slice.verificationPolled.type && (action.payload as { subscriptionId: number }).subscriptionId === subscriptionId)
        .map((action) => (action.payload as { value: string | null }).value),
    stopped: (subscriptionId: number) =>
      dispatched.filter((action) => action.type === slice.verificationStopped.type && action.payload === subscriptionId).length,
    /** What the saga said when it gave up at once on this subscription. */
    failed: (subscriptionId: number) =>
      dispatched
        .filter((action) => action.type === slice.verificationFailed.type && (action.payload as { subscriptionId: number }).subscriptionId === subscriptionId)
        .map((action) => action.payload),
    async stop() {
      task.cancel();
      globalThis.fetch = realFetch;
    },
  };
}

describe('panel verification polling (redux-saga on driven time)', () => {
  let panel: Awaited<ReturnType<typeof startPanel>> | undefined;
  let loggedErrors: unknown[][] = [];
  const realConsoleError = console.error;

  beforeEach(() => {
    loggedErrors = [];
    // The saga only logs failed fetches (spec section 8); keep them to assert on, off the test output.
    console.error = (...args: unknown[]) => void loggedErrors.push(args);
  });

  afterEach(async () => {
    console.error = realConsoleError;
    await panel?.stop();
    panel = undefined;
  });

  it('polls at once, then every 10 s of driven time, and stops at the first link', async () => {
    const { VERIFICATION_POLL_MS } = await sagaModule();
    expect(VERIFICATION_POLL_MS).to.equal(10_000);
    const link = 'https://www.netflix.com/account/travel/verify?nftoken=abc';
    panel = await startPanel((poll) => ({ status: 200, body: { link: poll === 3 ? link : null } }));
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 7, kind: 'link' }));

    expect(panel.polls).to.deep.equal([{ at: 0, path: '/api/email/getnvlink', subscriptionId: '7' }]);
    await panel.time.advance(9_999);
    expect(panel.polls, 'not before 10 s').to.have.length(1);
    await panel.time.advance(1);
    expect(panel.polls.map((poll) => poll.at)).to.deep.equal([0, 10_000]);
    await panel.time.advance(10_000);
    expect(panel.polls.map((poll) => poll.at)).to.deep.equal([0, 10_000, 20_000]);
    expect(panel.polled(7)).to.deep.equal([null, null, link]);

    // The link ends the polling: nothing waits, and no poll follows however long the page stays.
    expect(panel.time.waiting).to.equal(0);
    await panel.time.advance(10 * 60_000);
    expect(panel.polls).to.have.length(3);
    expect(panel.time.asked).to.deep.equal([10_000, 10_000]);
    expect(panel.stopped(7)).to.equal(0);
  });

  it('gives up after 12 polls without a value (110 s), and says it stopped', async () => {
    const { VERIFICATION_MAX_POLLS } = await sagaModule();
    expect(VERIFICATION_MAX_POLLS).to.equal(12);
    panel = await startPanel(() => ({ status: 200, body: { code: null } }));
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 8, kind: 'code' }));
    for (let step = 0; step < 20; step += 1) await panel.time.advance(10_000);

    expect(panel.polls.map((poll) => poll.at)).to.deep.equal(Array.from({ length: 12 }, (_, index) => index * 10_000));
    expect(panel.polls.every((poll) => poll.path === '/api/email/getchgptcode' && poll.subscriptionId === '8')).to.equal(true);
    expect(panel.polled(8)).to.deep.equal(Array.from({ length: 12 }, () => null));
    expect(panel.stopped(8)).to.equal(1);
    expect(panel.time.asked).to.deep.equal(Array.from({ length: 11 }, () => 10_000));
  });

  it('a failed fetch is only logged and the next poll comes 10 s later; a second click while polling starts nothing', async () => {
    panel = await startPanel((poll) =>
      poll === 1 ? { status: 503, body: { message: 'down', code: 'mailbox_unavailable' } } : { status: 200, body: { code: '123456' } },
    );
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 9, kind: 'code' }));
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 9, kind: 'code' }));
    expect(panel.polls).to.have.length(1);
    expect(panel.polled(9)).to.deep.equal([null]);
    expect(loggedErrors.map((args) => args[0])).to.deep.equal(['[subshare] verification fetch failed']);

    await panel.time.advance(10_000);
    expect(panel.polls.map((poll) => poll.at)).to.deep.equal([0, 10_000]);
    expect(panel.polled(9)).to.deep.equal([null, '123456']);
  });

  it('no mailbox server configured: the first answer ends the polling at once, with what to do', async () => {
    const message = "This shop cannot read the accounts' mailboxes at the moment, so the link or code cannot be fetched. Please contact support.";
    panel = await startPanel(() => ({ status: 503, body: { message, code: 'mailbox_reading_off' } }));
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 11, kind: 'link' }));

    expect(panel.failed(11)).to.deep.equal([{ subscriptionId: 11, message, code: 'mailbox_reading_off', serverMessage: message }]);
    expect(panel.time.waiting, 'no next poll is waiting').to.equal(0);
    await panel.time.advance(5 * 60_000);
    expect(panel.polls).to.have.length(1);
    expect(panel.stopped(11)).to.equal(0);

    // So does an account without a mailbox; a passing outage (503 mailbox_unavailable) does not (above).
    const noMailbox = await startPanel(() => ({
      status: 409,
      body: { message: 'This account has no mailbox to read. Please contact support.', code: 'no_mailbox' },
    }));
    try {
      await noMailbox.put(noMailbox.slice.verificationRequested({ subscriptionId: 12, kind: 'code' }));
      await noMailbox.time.advance(60_000);
      expect(noMailbox.polls).to.have.length(1);
      expect(noMailbox.failed(12)).to.have.length(1);
    } finally {
      await noMailbox.stop();
    }
  });

  it('leaving the panel ends the polling', async () => {
    panel = await startPanel(() => ({ status: 200, body: { link: null } }));
    await panel.put(panel.slice.verificationRequested({ subscriptionId: 10, kind: 'link' }));
    await panel.time.advance(10_000);
    expect(panel.polls).to.have.length(2);
    await panel.put(panel.slice.panelClosed());
    await panel.time.advance(60_000);
    expect(panel.polls).to.have.length(2);
  });
});
