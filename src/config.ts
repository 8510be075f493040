/**
 * Configuration from environment variables only, validated at start-up
 * (product.md §12). `npm start` works with none of them set.
 */

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
  /** Express's `trust proxy` value: false, true, a hop count or an address list. */
  trustProxy: boolean | number | string;
  /** Secret for signed cookies and CSRF tokens (≥ 32 characters); absent: kept in the database. */
  csrfSecret: string | undefined;
  /** True unless NODE_ENV is `development`. */
  production: boolean;
}

/** Thrown when the environment holds an invalid value; the message lists every problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
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

  const trustProxyRaw = env.TRUST_PROXY ?? 'false';
  if (trustProxyRaw.trim() === '') problems.push('TRUST_PROXY must not be empty');

  const csrfSecret = env.CSRF_SECRET;
  if (csrfSecret !== undefined && csrfSecret.length < 32) problems.push('CSRF_SECRET must be at least 32 characters long');

  const nodeEnv = env.NODE_ENV ?? 'production';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV must be production, development or test, got "${nodeEnv}"`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port,
    host,
    logLevel,
    databaseUrl,
    trustProxy: parseTrustProxy(trustProxyRaw),
    csrfSecret,
    production: nodeEnv !== 'development',
  };
}
