/** PostgreSQL's SQL of the migrations written per engine (src/storage/migrations/index.ts), in order. */
import m0001 from './0001-registrations.js';
import m0002 from './0002-rate-limits.js';
import m0003 from './0003-contact-messages.js';
import m0004 from './0004-outbox.js';
import m0005 from './0005-registration-count.js';
import m0006 from './0006-outbox-recipients.js';
import m0007 from './0007-count-shards.js';

export const MIGRATIONS: readonly string[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007];
