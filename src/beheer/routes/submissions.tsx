/**
 * One submission in beheer (docs/beheer.md §4–§6): its page, marking it answered, the person's data
 * as JSON, and its erasure after one more question.
 */
import { HttpError } from '../../errors.js';
import { notifyKind } from '../../storage/notify.js';
import { Detail } from '../../../views/beheer/Detail.js';
import { Erase, ERASE_CONFIRMED } from '../../../views/beheer/Erase.js';
import { when } from '../../../views/beheer/parts.js';
import { valueText } from '../form-admin.js';
import { BEHEER, type BeheerRoute } from '../route.js';
import { accountProps, posted, shown, valuesOf, type Forms } from './shared.js';

/** The outbox's states as staff read them (docs/operations.md §12). */
const MAIL_STATES: Record<string, string> = { pending: 'wordt verstuurd', sent: 'verstuurd', suppressed: 'niet verstuurd (limiet per ontvanger)', set_aside: 'apart gezet na mislukte pogingen' };

/** A submission's routes, with `:form` in their paths (src/beheer/routes.tsx gives each form its own). */
export function submissionRoutes({ submissionOf }: Forms): BeheerRoute[] {
  return [
    {
      path: `${BEHEER}/:form/:id`,
      access: 'reader',
      answers: 'page',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        const values = valuesOf(admin, listed);
        const mail = (await ctx.storage.staff.mailStates(id)).map(({ kind, state }) => `${kind === notifyKind(admin.name) ? 'melding aan de organisatie' : 'e-mail aan de afzender'}: ${MAIL_STATES[state] ?? state}`);
        await ctx.audit({ action: 'detail', form: admin.name, about: id });
        ctx.page(
          200,
          `${admin.title}: inzending`,
          <Detail
            account={accountProps(ctx.staff!)}
            form={{ name: admin.name, title: admin.title, answerable: admin.answerable }}
            id={id}
            fields={admin.fields.map((f) => ({ label: f.label, value: valueText(f, values[f.name]) }))}
            at={shown(listed.row.createdAt)}
            mail={mail}
            answered={listed.answered && `ja, door ${listed.answered.email ?? 'een verwijderd account'} op ${when(listed.answered.at)}`}
          />,
        );
      },
    },
    {
      path: `${BEHEER}/:form/:id/beantwoord`,
      access: 'admin',
      answers: 'page',
      async post(ctx) {
        const { admin, id } = await submissionOf(ctx);
        if (!admin.answerable) throw new HttpError(404, 'This form is not answered');
        await ctx.storage.staff.markAnswered(admin.name, id, ctx.staff!.account.id, Date.now());
        await ctx.audit({ action: 'answered', form: admin.name, about: id });
        ctx.res.redirect(303, `${BEHEER}/${admin.name}/${id}`);
      },
    },
    {
      path: `${BEHEER}/:form/:id/gegevens`,
      access: 'admin',
      answers: 'download',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        await ctx.audit({ action: 'person_export', form: admin.name, about: id });
        ctx.res
          .status(200)
          .set('Content-Type', 'application/json; charset=utf-8')
          .set('Content-Disposition', `attachment; filename="eiland-${admin.name}-${id}.json"`)
          .send(JSON.stringify(valuesOf(admin, listed), null, 2));
      },
    },
    {
      path: `${BEHEER}/:form/:id/verwijderen`,
      access: 'admin',
      answers: 'page',
      async get(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        const name = String(valuesOf(admin, listed).naam ?? id);
        ctx.page(200, 'Inzending verwijderen', <Erase account={accountProps(ctx.staff!)} form={admin} id={id} name={name} />);
      },
      async post(ctx) {
        const { admin, id, listed } = await submissionOf(ctx);
        if (posted(ctx.req, 'bevestigd') !== ERASE_CONFIRMED) {
          const name = String(valuesOf(admin, listed).naam ?? id);
          return ctx.page(200, 'Inzending verwijderen', <Erase account={accountProps(ctx.staff!)} form={admin} id={id} name={name} />);
        }
        // The same erasure as the person's own (docs/pages.md §7): the row, its e-mails and their copies.
        if (!(await ctx.storage.erase(admin.keep.table, id))) throw new HttpError(404, 'Erased meanwhile');
        ctx.req.log.info({ event: 'submission_erased', form: admin.name }, 'submission_erased');
        await ctx.audit({ action: 'erase', form: admin.name, about: id });
        ctx.res.redirect(303, `${BEHEER}/${admin.name}`);
      },
    },
  ];
}
