/**
 * The storage contract (docs/operations.md §3): one small async API, the same for
 * every engine. Anything an engine fails with becomes `StorageUnavailableError`
 * (the error handler's 503 page), never a crash.
 */

/** A stored registration. */
export interface Registration {
  /** UUID, the `:id` of `/aanmeldingen/:id`. */
  id: string;
  naam: string;
  email: string;
  website: string | null;
  referentie: string | null;
  gebruikersnaam: string;
  landcode: string;
  interesses: string[];
  personen: number;
  /** ISO 8601 time of storing. */
  createdAt: string;
}

/** What the form hands to storage. */
export type NewRegistration = Omit<Registration, 'id' | 'createdAt'>;

/** A stored contact message (docs/forms.md §9). */
export interface ContactMessage {
  /** UUID. */
  id: string;
  naam: string;
  email: string;
  /** One of the subjects' values: `vraag`, `klacht`, `compliment`. */
  onderwerp: string;
  bericht: string;
  /** ISO 8601 time of storing. */
  createdAt: string;
}

/** What the contact form hands to storage. */
export type NewContactMessage = Omit<ContactMessage, 'id' | 'createdAt'>;

/**
 * A message of the outbox, leased to be sent (docs/operations.md §12): what its composer needs,
 * read from the row it is about when it is sent.
 */
export interface OutboxMessage {
  /** UUID of the outbox row: the message's own, stable over its sends. */
  id: string;
  /** What it confirms: a registration (the link to its page) or a contact message (a receipt). */
  kind: 'registration' | 'contact';
  /** The id of the registration or contact message it is about. */
  about: string;
  naam: string;
  /** The recipient. */
  email: string;
  /** Sends tried, this one included. */
  attempts: number;
  /** This lease's token: a settle with another (the lease ended and another took it) changes nothing. */
  lease: string;
}

/** What became of a leased message's send. */
export type MailOutcome =
  /** Delivered to the SMTP server (or written as a file): kept a short while, then deleted. */
  | { state: 'sent' }
  /** Not delivered: tried again after `delayMs`; `error` is the server's answer, kept for operators. */
  | { state: 'retry'; delayMs: number; error: string }
  /** Not delivered and not to be tried again until an operator says so. */
  | { state: 'set_aside'; error: string }
  /** Not tried to the end (the instance is stopping): due again at once, this try not counted. */
  | { state: 'released' };

/** The database cannot be used right now; the error handler answers it with the 503 page (docs/errors.md §3, docs/operations.md §3). */
export class StorageUnavailableError extends Error {
  constructor(
    readonly operation: string,
    cause: unknown,
  ) {
    super(`Database unavailable during ${operation}`, { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** What a save did (docs/operations.md §3, §12). */
export interface Saved {
  /** The id of the submission key's row. */
  id: string;
  /** Whether this call stored it (false: the key's row was there). */
  created: boolean;
  /** Whether its e-mail was kept as suppressed, not to be sent: its recipient had 3 e-mails in 24 hours. */
  suppressed: boolean;
}

/** A rate-limit counter's state after a hit. */
interface RateLimitHit {
  /** Hits in the current window, this one included. */
  hits: number;
  /** When the window ends. */
  resetAt: Date;
}

/** The storage API. Every method rejects with `StorageUnavailableError` on engine failure. */
export interface Storage {
  /** Number of stored registrations. */
  countRegistrations(): Promise<number>;
  /**
   * Stores a registration once per submission key (unique constraint): posting
   * the same rendered form twice returns the first registration's id. A new one gets its
   * confirmation e-mail in the outbox, in the same transaction (docs/operations.md §12): pending,
   * or suppressed when its address has had 3 e-mails in the last 24 hours, whatever the instance.
   * @param submissionKey the form's per-render key (a UUID)
   */
  saveRegistration(submissionKey: string, registration: NewRegistration): Promise<Saved>;
  /** The registration with this id, or undefined. */
  findRegistration(id: string): Promise<Registration | undefined>;
  /**
   * Deletes the registrations and contact messages stored before a time (docs/operations.md §11),
   * with the outbox's messages about them, the messages sent (or suppressed) before another, and
   * the rate-limit counters whose window has ended (their keys name client addresses); one instance at
   * a time: on PostgreSQL under an advisory lock that another instance's run holds.
   * @param before the cut-off: rows stored earlier are deleted
   * @param sentBefore the outbox's cut-off: messages sent earlier are deleted
   * @returns how many of each were deleted (`mail`: sent messages), or undefined when another
   *   instance is running it now
   */
  deleteExpired(before: Date, sentBefore: Date): Promise<{ registrations: number; contactMessages: number; mail: number } | undefined>;
  /**
   * Erases a registration (docs/pages.md §7: the person's own erasure), with the outbox's
   * messages about it.
   * @returns whether there was one to erase
   */
  deleteRegistration(id: string): Promise<boolean>;
  /**
   * Stores a contact message once per submission key (unique constraint), as registrations are,
   * with its receipt in the outbox (pending or suppressed, as a registration's).
   */
  saveContactMessage(submissionKey: string, message: NewContactMessage): Promise<Saved>;
  /** The contact message with this id, or undefined. */
  findContactMessage(id: string): Promise<ContactMessage | undefined>;
  /**
   * Leases the outbox's messages that are due (docs/operations.md §12): each is leased by one
   * caller, whatever the instances (a row lease taken with `FOR UPDATE SKIP LOCKED` on
   * PostgreSQL), and counted as tried. A lease not settled within `leaseMs` (the instance died)
   * makes the message due again.
   * @param limit at most this many
   * @param leaseMs how long the lease holds, in ms
   */
  leaseMail(limit: number, leaseMs: number): Promise<OutboxMessage[]>;
  /**
   * Records what became of a leased message's send, if the lease is still the caller's: a lease
   * that ended and was taken by another, and a message gone since (erased), are left as they are.
   * @param message the leased message (its id and lease token)
   * @returns whether it was recorded (false: the lease was no longer the caller's, or the message
   *   is gone)
   */
  settleMail(message: Pick<OutboxMessage, 'id' | 'lease'>, outcome: MailOutcome): Promise<boolean>;
  /**
   * A setting, created once with `create()` when absent (first writer wins, so
   * several instances on one database agree).
   */
  setting(name: string, create: () => string): Promise<string>;
  /**
   * Counts a hit for a rate-limit key in the database, so every instance on it counts together
   * (docs/forms.md §7). A key whose window has ended starts a new window of `windowMs`.
   */
  hitRateLimit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Takes one hit back (never below 0). */
  unhitRateLimit(key: string): Promise<void>;
  /** Forgets a key. */
  resetRateLimit(key: string): Promise<void>;
  /** Closes the database; later calls reject. */
  close(): Promise<void>;
}
