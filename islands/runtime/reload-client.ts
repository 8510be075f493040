/**
 * The development reload client's logic (docs/development.md §2–§3), free of globals so that its tests
 * can drive it with a fake EventSource and mocked timers. It listens on the reload channel,
 * reloads the page after a rebuild or when the build id differs after reconnecting, shows
 * build failures, and after losing the channel tries again on the seed's schedule.
 * Browser code only.
 */
import { nextStep } from '../../protocol/reload.js';

/** The part of `EventSource` the client uses. */
export interface ChannelSource {
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

/** What the reload client needs from its page. */
interface ReloadClientOptions {
  /** The channel's URL, e.g. `/_eiland/reload`. */
  url: string;
  /** The build id the page was rendered with (`<meta name="eiland-build">`). */
  buildId: string;
  /** Opens the channel: `(url) => new EventSource(url)` in a browser. */
  connect(url: string): ChannelSource;
  /** Reloads the page: `() => location.reload()` in a browser. */
  reload(): void;
  /** Shows what the developer's build printed. */
  showFailure(message: string): void;
}

/** A running reload client. */
interface ReloadClient {
  /** Failed tries since the channel was last open. */
  readonly failedTries: number;
  /** Closes the channel and cancels any pending try. */
  stop(): void;
}

/**
 * Starts the reload client: connects at once.
 * @returns a handle to read the failure count and stop it
 */
export function startReloadClient({ url, buildId, connect, reload, showFailure }: ReloadClientOptions): ReloadClient {
  let failedTries = 0;
  let source: ChannelSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    reload();
  };

  const open = () => {
    timer = undefined;
    let opened = false;
    const current = connect(url);
    source = current;
    const data = (event: MessageEvent<string>) => JSON.parse(event.data) as { id?: string; message?: string };
    current.addEventListener('open', () => {
      opened = true;
      failedTries = 0; // a successful connection resets the count
    });
    current.addEventListener('hello', (event) => {
      if (data(event).id !== buildId) finish();
    });
    current.addEventListener('reload', finish);
    current.addEventListener('build-failed', (event) => showFailure(String(data(event).message)));
    let lost = false;
    current.addEventListener('error', () => {
      current.close();
      // Once per connection: Chromium may report a dropped stream twice.
      if (lost || done) return;
      lost = true;
      if (!opened) failedTries += 1;
      const step = nextStep(failedTries);
      if (step.reload) finish();
      else timer = setTimeout(open, step.delayMs);
    });
  };

  open();
  return {
    get failedTries() {
      return failedTries;
    },
    stop() {
      done = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
