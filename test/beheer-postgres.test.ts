/**
 * Beheer's server suite on PostgreSQL (test/helpers/beheer-suite.ts; docs/beheer.md §1–§7): every
 * rule of accounts, sessions, access, lists, answering, export, erasure and the audit log on a
 * fresh database of its own; and the staff command's bundle on `DATABASE_URL`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openPostgres, type Storage } from '../src/storage/index.js';
import { beheerSuite } from './helpers/beheer-suite.js';
import { usePostgres } from './helpers/postgres.js';
import { TEST_MIGRATIONS } from './helpers/temp-storage.js';
import { PROJECT_ROOT } from '../src/project-root.js';

/** The staff command's bundle, as `npm run staff` runs it after the build. */
const STAFF = join(PROJECT_ROOT, 'dist', 'server', 'staff.js');

describe('beheer’s server suite on PostgreSQL', () => {
  const cluster = usePostgres();
  let storage: Storage | undefined;
  beheerSuite('PostgreSQL', async () => {
    storage = await openPostgres({ url: await cluster.createDatabase(), poolSize: 4 }, TEST_MIGRATIONS);
    return { storage };
  });
  after(() => storage?.close());
});

describe('npm run staff on the configured database (docs/beheer.md §1)', () => {
  const cluster = usePostgres();

  it('adds, lists and refuses as its bundle, on DATABASE_URL, with its exit codes', async () => {
    const env = { ...process.env, DATABASE_URL: await cluster.createDatabase(), LOG_LEVEL: 'silent', PORT: '4321' };
    const staff = (...args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        execFile(process.execPath, [STAFF, ...args], { env, encoding: 'utf8' }, (error, out, err) => resolve({ code: error ? (error.code as number) : 0, out, err }));
      });
    const added = await staff('add', 'Bundel@Example.org', '--role', 'beheerder');
    assert.equal(added.code, 0, added.err);
    assert.match(added.out, /^Added bundel@example\.org as beheerder\. Password link \(valid 24 hours, usable once\):\nhttp:\/\/127\.0\.0\.1:4321\/beheer\/wachtwoord\/[A-Za-z0-9_-]{43}\n$/);
    assert.deepEqual(await staff('list'), { code: 0, out: 'bundel@example.org\tbeheerder\twacht op wachtwoord\n', err: '' });
    assert.equal((await staff('add', 'bundel@example.org', '--role', 'reader')).code, 1);
    const usage = await staff('remove', 'bundel@example.org');
    assert.equal(usage.code, 2);
    assert.match(usage.err, /^Unknown command "remove"\n\nnpm run staff -- add <email>/);
    const config = await new Promise<{ code: number | null; err: string }>((resolve) =>
      execFile(process.execPath, [STAFF, 'list'], { env: { ...env, PORT: 'nee' }, encoding: 'utf8' }, (error, _out, err) => resolve({ code: error ? (error.code as number) : 0, err })),
    );
    assert.equal(config.code, 2);
    assert.match(config.err, /PORT must be an integer/);
  });
});
