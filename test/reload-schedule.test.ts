import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { startReloadClient, type ChannelSource } from '../islands/runtime/reload-client.js';
import { nextStep, RECONNECT } from '../protocol/reload.js';

describe('the reconnect schedule (docs/development.md §3)', () => {
  it('waits 1 s before each of tries 1–5 and 5 s before each of tries 6–25', () => {
    for (let attempt = 1; attempt <= 25; attempt++) {
      // Try number `attempt` follows `attempt - 1` failed tries.
      assert.deepEqual(nextStep(attempt - 1), { reload: false, delayMs: attempt <= 5 ? 1000 : 5000 }, `try ${attempt}`);
    }
  });

  it('reloads the page once 25 tries have failed', () => {
    assert.deepEqual(nextStep(25), { reload: true });
    assert.deepEqual(nextStep(26), { reload: true });
    assert.equal(RECONNECT.reloadAfter, 25);
  });

  it('refuses a count that is not a whole number ≥ 0', () => {
    for (const bad of [-1, 1.5, Number.NaN]) assert.throws(() => nextStep(bad), RangeError);
  });
});

/** An EventSource stand-in the test opens, fails and feeds by hand. */
class FakeSource implements ChannelSource {
  readonly listeners = new Map<string, Array<(event: MessageEvent<string>) => void>>();
  closed = false;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data?: object): void {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data ?? {}) } as MessageEvent<string>);
  }
}

describe('the reload client on mocked timers (docs/development.md §3)', () => {
  let sources: FakeSource[];
  let connectedAt: number[];
  let reloads: number;
  let failures: string[];
  let now: number;

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    sources = [];
    connectedAt = [];
    reloads = 0;
    failures = [];
    now = 0;
  });
  afterEach(() => mock.timers.reset());

  const tick = (ms: number) => {
    now += ms;
    mock.timers.tick(ms);
  };
  const start = (buildId = 'b1') =>
    startReloadClient({
      url: '/_eiland/reload',
      buildId,
      connect: () => {
        const source = new FakeSource();
        sources.push(source);
        connectedAt.push(now);
        return source;
      },
      reload: () => (reloads += 1),
      showFailure: (message) => failures.push(message),
    });
  const last = () => sources.at(-1)!;
  /** Advances the clock in 100 ms steps until a new connection is tried; returns the wait. */
  const waitForTry = () => {
    const before = sources.length;
    let waited = 0;
    while (sources.length === before) {
      tick(100);
      waited += 100;
      assert.ok(waited <= 10_000, 'no try within 10 s');
    }
    return waited;
  };

  it('after losing the channel, tries again after 1 s five times, then every 5 s, and reloads after 25 failed tries', () => {
    start();
    last().emit('open');
    last().emit('hello', { id: 'b1' });
    last().emit('error'); // the channel is lost
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 25; attempt++) {
      waits.push(waitForTry());
      assert.equal(reloads, 0, `no reload before try ${attempt} failed`);
      last().emit('error'); // this try fails
    }
    assert.deepEqual(waits, [...Array(5).fill(1000), ...Array(20).fill(5000)]);
    assert.equal(reloads, 1, 'the 25th failed try reloads the page');
    tick(60_000);
    assert.equal(sources.length, 26, 'no try after the reload');
  });

  it('resets the count after a successful connection', () => {
    start();
    last().emit('open');
    last().emit('error');
    for (let attempt = 1; attempt <= 7; attempt++) {
      waitForTry();
      last().emit('error');
    }
    assert.equal(waitForTry(), 5000, 'the 8th try waits 5 s');
    last().emit('open');
    last().emit('hello', { id: 'b1' });
    assert.equal(reloads, 0, 'the same build: no reload');
    last().emit('error'); // lost again
    assert.equal(waitForTry(), 1000, 'the count starts again: 1 s');
  });

  it('reloads when the build id differs after reconnecting, and after a finished rebuild', () => {
    start('b1');
    last().emit('open');
    last().emit('error');
    waitForTry();
    last().emit('open');
    last().emit('hello', { id: 'b2' });
    assert.equal(reloads, 1);

    start('b1');
    last().emit('open');
    last().emit('hello', { id: 'b1' });
    last().emit('reload', { id: 'b3' });
    assert.equal(reloads, 2);
  });

  it('shows a failed build and keeps the page', () => {
    start();
    last().emit('open');
    last().emit('build-failed', { message: 'islands/X.tsx:3:7: ERROR: Expected ";"' });
    assert.deepEqual(failures, ['islands/X.tsx:3:7: ERROR: Expected ";"']);
    assert.equal(reloads, 0);
  });

  it('counts a loss reported twice once, and reloads once', () => {
    start('b1');
    last().emit('open');
    last().emit('error');
    last().emit('error');
    assert.equal(waitForTry(), 1000);
    tick(5000);
    assert.equal(sources.length, 2, 'one try, not two');
    last().emit('open');
    last().emit('hello', { id: 'b2' });
    last().emit('reload', { id: 'b2' });
    assert.equal(reloads, 1);
  });

  it('stops: closes the channel and cancels a pending try', () => {
    const client = start();
    last().emit('open');
    last().emit('error');
    client.stop();
    tick(10_000);
    assert.equal(sources.length, 1);
    assert.equal(last().closed, true);
  });
});
