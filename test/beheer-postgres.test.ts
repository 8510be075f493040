/**
 * Beheer's server suite on PostgreSQL (test/helpers/beheer-suite.ts; docs/beheer.md §1–§7): every
 * rule of accounts, sessions, access, lists, answering, export, erasure and the audit log on a
 * fresh database of its own.
 */
import { after, describe } from 'node:test';
import { openPostgres, type Storage } from '../src/storage/index.js';
import { beheerSuite } from './helpers/beheer-suite.js';
import { usePostgres } from './helpers/postgres.js';
import { TEST_MIGRATIONS } from './helpers/temp-storage.js';

describe('beheer’s server suite on PostgreSQL', () => {
  const cluster = usePostgres();
  let storage: Storage | undefined;
  beheerSuite('PostgreSQL', async () => {
    storage = await openPostgres({ url: await cluster.createDatabase(), poolSize: 4 }, TEST_MIGRATIONS);
    return { storage };
  });
  after(() => storage?.close());
});
