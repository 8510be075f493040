/**
 * Configuration from environment variables only, validated at start-up
 * (docs/operations.md §1). `npm start` works with none of them set.
 */

import { availableParallelism } from 'node:os';
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { DEFAULT_CACHE_MAX_BYTES, DEFAULT_OUTPUT_FORMATS, OUTPUT_FORMATS, type OutputFormat } from '../protocol/image-config.js';
import type { RateLimit } from './filter/types.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** The validated configuration of one Eiland instance. */
export interface Config {
  /** TCP port, 0–65535 (0: any free port). */
  port: number;
  /** Interface to listen on. */
  host: string;
  logLevel: LogLevel;
  /** PostgreSQL connection string, or undefined for the embedded SQLite database. */
  databaseUrl: string | undefined;
  /** Connections in the PostgreSQL pool (`DATABASE_POOL_SIZE`, 1–100, default 10). */
  databasePoolSize: number;
  /** Express's `trust proxy` value: false, true, a hop count or an address list. */
  trustProxy: boolean | number | string;
  /** Secret for signed cookies and CSRF tokens (≥ 32 characters); absent: kept in the database. */
  csrfSecret: string | undefined;
  /** True unless NODE_ENV is `development`. */
  production: boolean;
  /**
   * `PUBLIC_ORIGIN`: the origins the site is served at (several for multi-domain deployments),
   * e.g. `['https://eiland.example']`; undefined: any `Host` (docs/filter.md §9: set it in production).
   */
  publicOrigins: string[] | undefined;
  /** The per-address limit of `POST /aanmelden` (`FORM_RATE_LIMIT`, docs/forms.md §7). */
  formRateLimit: RateLimit;
  /** Days a registration or contact message is kept (`RETENTION_DAYS`, docs/operations.md §11). */
  retentionDays: number;
  /** The outbox's e-mail (docs/operations.md §12). */
  mail: {
    /** `SMTP_URL`, `smtp://` or `smtps://` with a host (and a port, or Nodemailer's default); undefined: each message written as an `.eml` file under `data/mail/`. */
    smtpUrl: string | undefined;
    /** `MAIL_FROM`, the sender, e.g. `Eiland <noreply@eiland.example>`. */
    from: string;
    /** `MAIL_RETRY_MS`: the first retry's delay in ms (default a minute); each next one doubles, up to an hour. */
    retryMs: number;
    /** `MAIL_MAX_ATTEMPTS`: tries before a message is set aside (default 10). */
    maxAttempts: number;
    /** `NOTIFY_TO`: the organisation's mailboxes told of each submission of a form that notifies (docs/beheer.md §5); undefined: no notifications. */
    notifyTo: string[] | undefined;
  };
  /**
   * The metrics listener (`METRICS_PORT`, `METRICS_HOST`): off (undefined) unless a port is set;
   * on loopback unless a host is set.
   */
  metrics: { port: number; host: string } | undefined;
  /** The render cache (docs/streaming.md §6). */
  renderCache: {
    /** Its bound in bytes (`RENDER_CACHE_MAX_BYTES`, default 16 MiB, at most 1 GiB); 0 turns it off. */
    maxBytes: number;
    /** Every hit compared with a fresh render (`RENDER_CACHE_VERIFY`: `1` or `0`; default on in development only). */
    verify: boolean;
  };
  /** `/_image` (docs/images.md §1); defaults in protocol/image-config.ts. */
  images: {
    /** Output formats by `Accept`, most preferred first (`IMAGE_FORMATS`; AVIF opt-in). */
    formats: OutputFormat[];
    /** The disk cache's folder (`IMAGE_CACHE_DIR`); undefined: `data/image-cache` in the project. */
    cacheDir: string | undefined;
    /** The disk cache's bound in bytes (`IMAGE_CACHE_MAX_BYTES`). */
    cacheMaxBytes: number;
    /** sharp jobs at once (`IMAGE_JOBS`), 1 to the number of cores; default one core fewer than there are. */
    jobs: number;
  };
}

/** Thrown when the environment holds an invalid value; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** The outbox's first retry's delay, and its tries, unless configured (docs/operations.md §12). */
const DEFAULT_MAIL_RETRY_MS = 60_000;
const DEFAULT_MAIL_MAX_ATTEMPTS = 10;
/**
 * A plain mailbox address: a local part without quotes, spaces or specials, one `@`, and a
 * domain of dotted labels or `localhost` (docs/operations.md §1, `MAIL_FROM`).
 */
const PLAIN_ADDRESS = /^[^\s"<>,@]+@(?:[^\s"<>,@.]+(?:\.[^\s"<>,@.]+)+|localhost)$/;
/** C0 controls and DEL: a header value holding one is not what Nodemailer would send. */
const CONTROL_CHARS = /[\x00-\x1f\x7f]/;

/** Days personal data is kept unless `RETENTION_DAYS` says otherwise (docs/operations.md §11). */
export const DEFAULT_RETENTION_DAYS = 365;

/** The render cache's bound unless `RENDER_CACHE_MAX_BYTES` says otherwise: 16 MiB. */
export const DEFAULT_RENDER_CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** Today's limit of form posts per client address: 20 per 10 minutes (docs/forms.md §7). */
export const DEFAULT_FORM_RATE_LIMIT = '20/10m';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * Parses a rate limit written as posts per window, e.g. `20/10m` (units `s`, `m`, `h`).
 * @returns the limit and window in ms, or undefined when malformed or zero
 */
export function parseRateLimit(raw: string): RateLimit | undefined {
  const match = /^(\d{1,9})\/(\d{1,9})([smh])$/.exec(raw.trim());
  if (!match) return undefined;
  const limit = Number(match[1]);
  const windowMs = Number(match[2]) * UNIT_MS[match[3] as keyof typeof UNIT_MS];
  return limit >= 1 && windowMs >= 1000 ? { limit, windowMs } : undefined;
}

/** The items of a comma-separated value, trimmed, empty ones left out. */
function commaList(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Whether a string is exactly an http(s) origin as browsers send it in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

/**
 * Whether `SMTP_URL` names the server Nodemailer will connect to (docs/operations.md §1):
 * `smtp:` or `smtps:` with a host, and a port from 1 to 65535 or none. Nodemailer falls back to
 * `localhost` for a missing host and to its default port for port 0, so both are refused.
 */
function isSmtpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false; // WHATWG refuses a port above 65535 here
  const { protocol, hostname, port, search, hash } = new URL(value);
  // `smtp:mail.example` (no `//`) has an empty hostname for WHATWG (Nodemailer alone re-inserts
  // the `//`), so the start-up line could not name its host. WHATWG strips a port's leading zeros.
  // No query: Nodemailer reads its options from it, and `?debug=true&logger=true` would print the
  // SMTP transcript, addresses and links included, to stdout.
  return (protocol === 'smtp:' || protocol === 'smtps:') && hostname !== '' && port !== '0' && search === '' && hash === '' && !value.includes('?');
}

/**
 * Whether `MAIL_FROM` is exactly one mailbox, `address` or `Name <address>`, as Nodemailer reads
 * it (docs/operations.md §1). Parsed with Nodemailer's own address parser, the one it reads
 * `from` with; the value must be what that parse formats back to, so nothing written is dropped
 * or read differently (`a,b@c.example`, `a b@c.example`, `Eiland <a@b.example> extra`).
 */
function isOneMailbox(value: string): boolean {
  if (CONTROL_CHARS.test(value)) return false;
  const entries = addressparser(value);
  const entry = entries[0];
  if (entries.length !== 1 || entry === undefined || entry.group !== undefined) return false;
  const { name, address } = entry;
  if (!PLAIN_ADDRESS.test(address)) return false;
  if (name === '') return value === address;
  // A display name holding specials (`"Eiland, de site"`) is written quoted; a plain one may be either.
  return value === `${name} <${address}>` || value === `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`;
}

/**
 * The sender unless `MAIL_FROM` is set: `Eiland <noreply@HOST>`, HOST the first public origin's
 * host when that makes a valid address (a dotted name or IPv4 address), else `localhost`.
 */
function defaultMailFrom(publicOrigins: string[] | undefined): string {
  const first = publicOrigins?.[0];
  const host = first !== undefined && URL.canParse(first) ? new URL(first).hostname : '';
  return `Eiland <noreply@${PLAIN_ADDRESS.test(`noreply@${host}`) ? host : 'localhost'}>`;
}

function parseTrustProxy(raw: string): boolean | number | string {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

/**
 * Reads and validates the configuration.
 * @param env the environment, normally `process.env`
 * @returns the configuration, with defaults for every absent variable
 * @throws ConfigError naming every bad variable and its value
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];

  const portRaw = env.PORT ?? '3000';
  const port = Number(portRaw);
  if (!/^\d+$/.test(portRaw) || port > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535, got "${portRaw}"`);
  }

  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '') problems.push('HOST must not be empty');

  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const poolRaw = env.DATABASE_POOL_SIZE ?? '10';
  const databasePoolSize = Number(poolRaw);
  if (!/^\d+$/.test(poolRaw) || databasePoolSize < 1 || databasePoolSize > 100) problems.push(`DATABASE_POOL_SIZE must be an integer from 1 to 100, got "${poolRaw}"`);

  const trustProxyRaw = env.TRUST_PROXY ?? 'false';
  if (trustProxyRaw.trim() === '') problems.push('TRUST_PROXY must not be empty');

  const csrfSecret = env.CSRF_SECRET;
  if (csrfSecret !== undefined && csrfSecret.length < 32) problems.push('CSRF_SECRET must be at least 32 characters long');

  const nodeEnv = env.NODE_ENV ?? 'production';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV must be production, development or test, got "${nodeEnv}"`);
  }

  const formatsRaw = env.IMAGE_FORMATS ?? DEFAULT_OUTPUT_FORMATS.join(',');
  const formats = commaList(formatsRaw) as OutputFormat[];
  if (formats.some((f) => !OUTPUT_FORMATS.includes(f))) {
    problems.push(`IMAGE_FORMATS must be a comma-separated list of ${OUTPUT_FORMATS.join(', ')} (or empty for the sources' own formats), got "${formatsRaw}"`);
  }

  const cacheRaw = env.IMAGE_CACHE_MAX_BYTES ?? String(DEFAULT_CACHE_MAX_BYTES);
  if (!/^\d{1,15}$/.test(cacheRaw)) problems.push(`IMAGE_CACHE_MAX_BYTES must be a whole number of bytes, got "${cacheRaw}"`);

  const cores = availableParallelism();
  const jobsRaw = env.IMAGE_JOBS ?? String(Math.max(1, cores - 1));
  const jobs = Number(jobsRaw);
  if (!/^\d+$/.test(jobsRaw) || jobs < 1 || jobs > cores) problems.push(`IMAGE_JOBS must be an integer from 1 to ${cores} (the number of cores), got "${jobsRaw}"`);

  const cacheDir = env.IMAGE_CACHE_DIR || undefined;

  const originsRaw = env.PUBLIC_ORIGIN?.trim() || undefined;
  const publicOrigins = originsRaw === undefined ? undefined : commaList(originsRaw);
  for (const origin of publicOrigins ?? []) {
    if (!isOrigin(origin)) problems.push(`PUBLIC_ORIGIN must be a comma-separated list of origins like https://eiland.example (scheme, host, optional port; no path), got "${origin}"`);
  }

  const metricsPortRaw = env.METRICS_PORT?.trim() || undefined;
  const metricsPort = Number(metricsPortRaw);
  if (metricsPortRaw !== undefined && (!/^\d+$/.test(metricsPortRaw) || metricsPort > 65535)) {
    problems.push(`METRICS_PORT must be an integer from 0 to 65535, got "${metricsPortRaw}"`);
  } else if (metricsPortRaw !== undefined && metricsPort !== 0 && metricsPort === port) {
    problems.push(`METRICS_PORT must not be PORT (${port}): metrics are never served on the public port`);
  }
  const metricsHost = env.METRICS_HOST?.trim() || '127.0.0.1';

  const formLimitRaw = env.FORM_RATE_LIMIT ?? DEFAULT_FORM_RATE_LIMIT;
  const formRateLimit = parseRateLimit(formLimitRaw);
  if (!formRateLimit) problems.push(`FORM_RATE_LIMIT must be posts per window, like 20/10m (units s, m, h; at least 1 post and 1 s), got "${formLimitRaw}"`);

  const retentionRaw = env.RETENTION_DAYS ?? String(DEFAULT_RETENTION_DAYS);
  const retentionDays = Number(retentionRaw);
  if (!/^\d{1,5}$/.test(retentionRaw) || retentionDays < 1 || retentionDays > 36_500) problems.push(`RETENTION_DAYS must be a whole number of days from 1 to 36500, got "${retentionRaw}"`);

  const smtpUrl = env.SMTP_URL?.trim() || undefined;
  // Never the value in the message: it may hold a password.
  if (smtpUrl !== undefined && !isSmtpUrl(smtpUrl)) problems.push('SMTP_URL must be an smtp:// or smtps:// URL with a host and a port from 1 to 65535 and no query options, like smtp://user:password@mail.example:587');
  const from = env.MAIL_FROM?.trim() || defaultMailFrom(publicOrigins);
  // JSON-quoted, so a line break in the value cannot split the problem's line.
  if (!isOneMailbox(from)) problems.push(`MAIL_FROM must be one address, like noreply@eiland.example or Eiland <noreply@eiland.example>, got ${JSON.stringify(from)}`);
  const retryRaw = env.MAIL_RETRY_MS ?? String(DEFAULT_MAIL_RETRY_MS);
  const retryMs = Number(retryRaw);
  if (!/^\d{1,7}$/.test(retryRaw) || retryMs < 10 || retryMs > 3_600_000) problems.push(`MAIL_RETRY_MS must be a whole number of ms from 10 to 3600000, got "${retryRaw}"`);
  const attemptsRaw = env.MAIL_MAX_ATTEMPTS ?? String(DEFAULT_MAIL_MAX_ATTEMPTS);
  const maxAttempts = Number(attemptsRaw);
  if (!/^\d{1,3}$/.test(attemptsRaw) || maxAttempts < 1 || maxAttempts > 100) problems.push(`MAIL_MAX_ATTEMPTS must be a whole number from 1 to 100, got "${attemptsRaw}"`);

  const notifyRaw = env.NOTIFY_TO?.trim() || undefined;
  const notifyTo = notifyRaw?.split(',').map((mailbox) => mailbox.trim());
  // Each a plain address: the notification goes to exactly these (docs/beheer.md §5).
  if (notifyTo && !notifyTo.every((mailbox) => !CONTROL_CHARS.test(mailbox) && PLAIN_ADDRESS.test(mailbox))) problems.push(`NOTIFY_TO must be e-mail addresses separated by commas, like team@eiland.example,info@eiland.example, got ${JSON.stringify(notifyRaw)}`);

  const renderCacheRaw = env.RENDER_CACHE_MAX_BYTES ?? String(DEFAULT_RENDER_CACHE_MAX_BYTES);
  const renderCacheMaxBytes = Number(renderCacheRaw);
  if (!/^\d{1,10}$/.test(renderCacheRaw) || renderCacheMaxBytes > 2 ** 30) problems.push(`RENDER_CACHE_MAX_BYTES must be a whole number of bytes from 0 (off) to 1073741824, got "${renderCacheRaw}"`);
  const verifyRaw = env.RENDER_CACHE_VERIFY ?? (nodeEnv === 'development' ? '1' : '0');
  if (verifyRaw !== '0' && verifyRaw !== '1') problems.push(`RENDER_CACHE_VERIFY must be 1 or 0, got "${verifyRaw}"`);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    logLevel,
    databaseUrl,
    databasePoolSize,
    trustProxy: parseTrustProxy(trustProxyRaw),
    csrfSecret,
    production: nodeEnv !== 'development',
    publicOrigins,
    formRateLimit: formRateLimit!,
    retentionDays,
    mail: { smtpUrl, from, retryMs, maxAttempts, notifyTo },
    metrics: metricsPortRaw === undefined ? undefined : { port: metricsPort, host: metricsHost },
    renderCache: { maxBytes: renderCacheMaxBytes, verify: verifyRaw === '1' },
    images: { formats, cacheDir, cacheMaxBytes: Number(cacheRaw), jobs },
  };
}
