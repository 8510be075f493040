/**
 * What an instance runs beside its requests (docs/operations.md §5): the retention job, the
 * outbox's sender and the metrics listener. Each is started by the site (src/site.ts), which
 * declares the order they stop in; this module is their one shape and the stop of a list of them.
 */
import type { Logger } from 'pino';

/**
 * A background job of an instance, as `startRetention`, `startMailer` and `startMetricsListener`
 * return it.
 * @example
 * const job: Job = { name: 'retention', stop: async () => clearInterval(timer) };
 */
export interface Job {
  /** Its name in the log (`job_stopping`, `job_stopped`). */
  readonly name: string;
  /**
   * Takes no new work from the moment it is called; resolves once the work under way has ended
   * (or, for the sender, been given back).
   */
  stop(): Promise<void>;
}

/**
 * Stops jobs in the order listed: each stop is begun before the next, at once, so none takes new
 * work while another finishes (the sender's wait of up to 5 s holds no other stop back), and
 * their ends are awaited together. Each begun and each ended stop is logged at `debug`.
 * @param jobs the jobs, in the order they stop
 * @returns resolves when every job has stopped; rejects with the first stop that failed
 * @example
 * await stopJobs([retention, mailer], logger); // then the storage may close under them
 */
export async function stopJobs(jobs: readonly Job[], logger: Logger): Promise<void> {
  await Promise.all(
    jobs.map((job) => {
      logger.debug({ event: 'job_stopping', job: job.name }, 'job_stopping');
      return job.stop().then(() => logger.debug({ event: 'job_stopped', job: job.name }, 'job_stopped'));
    }),
  );
}
