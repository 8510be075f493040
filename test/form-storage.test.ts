/**
 * What every form keeps, on both engines (docs/forms.md §8, docs/operations.md §3, §11, §12), from
 * its definition alone: for each keeping form of the test app (test/fixtures/forms.ts), its kit's
 * valid post as validation hands it on is stored once per submission key and read back as posted,
 * its e-mail is in the outbox under its kind and written from its template, its erasure takes the
 * row and its e-mails, and the retention job deletes it after the form's own days, not before.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { DEFAULT_RETENTION_DAYS } from '../src/config.js';
import type { FormDefinition } from '../src/forms/define.js';
import { letters, retained } from '../src/forms/index.js';
import { records } from '../src/forms/keep.js';
import { validateForm } from '../src/forms/validate.js';
import { createMailTransport } from '../src/mail/transport.js';
import { createMetrics } from '../src/metrics/index.js';
import { startRetention } from '../src/retention.js';
import type { Storage } from '../src/storage/types.js';
import { FORMS } from './fixtures/forms.js';
import { useEngines } from './helpers/engines.js';
import { FORM_KITS } from './helpers/form.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const { engines } = useEngines();
const mailDir = await mkdtemp(join(tmpdir(), 'eiland-form-mail-'));
after(() => rm(mailDir, { recursive: true, force: true }));

/** A form's kit's valid post, as the form's validation hands it to its records. */
async function validValue(form: FormDefinition): Promise<Record<string, unknown>> {
  const checked = await validateForm(form.dto, FORM_KITS[form.name]!.valid);
  assert.ok(checked.ok, `${form.name}: its kit's valid post passes its DTO`);
  return checked.value as Record<string, unknown>;
}

/** The retention job's one run, as if `now` were the given time. */
async function retentionAt(storage: Storage, now: number): Promise<void> {
  const run = startRetention({ storage, mailCopies: createMailTransport(undefined, mailDir), tables: retained(DEFAULT_RETENTION_DAYS, FORMS), logger: pino({ level: 'silent' }), metrics: createMetrics(), now: () => now });
  await run.firstRun;
  await run.stop();
}

const keeping = FORMS.filter((form) => form.keep);

describe('what every form keeps, on both engines (docs/forms.md §8)', () => {
  it('takes up a form that makes its own table (the test form)', () => {
    assert.ok(keeping.some((form) => form.keep!.migrates), keeping.map((form) => form.name).join());
  });

  for (const [engine, open] of engines) {
    for (const form of keeping) {
      const keep = form.keep!;
      it(`${engine}, ${form.name}: stored once per key, read back, mailed from its template, erased with its e-mails`, async () => {
        const { storage } = await open();
        try {
          const value = await validValue(form);
          const kept = records(storage, keep);
          const key = '5a1e0c4e-0000-4000-8000-000000000001';
          const first = await kept.save(key, value as never);
          assert.equal(first.created, true);
          assert.deepEqual(await kept.save(key, value as never), { id: first.id, created: false, suppressed: false }, 'a repeat of the key stores nothing');
          const found = (await kept.find(first.id)) as Record<string, unknown> | undefined;
          for (const field of keep.fields) assert.deepEqual(found?.[field] ?? undefined, value[field] === '' ? undefined : value[field], `${field} read back as posted`);
          const messages = await storage.leaseMail(10, 60_000);
          if (keep.mail) {
            assert.deepEqual(
              messages.map(({ kind, about }) => ({ kind, about })),
              [{ kind: form.name, about: first.id }],
            );
            const letter = await letters(storage, 'https://eiland.example', FORMS)(messages[0]!);
            assert.equal(letter?.to, value.email);
            assert.equal(letter?.subject, keep.mail(found as never, 'https://eiland.example').subject);
          } else {
            assert.deepEqual(messages, [], 'a form that mails nothing puts nothing in the outbox');
          }
          assert.equal(await kept.erase(first.id), true);
          assert.equal(await kept.find(first.id), undefined);
          assert.deepEqual(await storage.leaseMail(10, 0), [], 'its e-mails went with it');
        } finally {
          await storage.close();
        }
      });

      it(`${engine}, ${form.name}: kept ${keep.days ?? DEFAULT_RETENTION_DAYS} days by the retention job, then deleted`, async () => {
        const { storage } = await open();
        try {
          const kept = records(storage, keep);
          const { id } = await kept.save('5a1e0c4e-0000-4000-8000-000000000002', (await validValue(form)) as never);
          const storedAt = Date.parse(((await kept.find(id)) as { createdAt: string }).createdAt);
          const days = (keep.days ?? DEFAULT_RETENTION_DAYS) * DAY_MS;
          await retentionAt(storage, storedAt + days - 60_000);
          assert.notEqual(await kept.find(id), undefined, 'kept a minute before its days are over');
          await retentionAt(storage, storedAt + days + 60_000);
          assert.equal(await kept.find(id), undefined, 'deleted a minute after');
        } finally {
          await storage.close();
        }
      });
    }
  }
});
