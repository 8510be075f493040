/**
 * `/aanmelden`: Eiland's registration form island (islands/RegistrationForm.tsx) inside
 * views/Layout.tsx. GET renders an empty form with a CSRF token; POST is counted against its
 * address's limit, read, checked for another site and the token (lib/post-guards.mjs), validated
 * with the same rule list and stored with Eiland's storage module (303), or re-rendered with the
 * messages (422). Its e-mail is sent by Eiland's outbox sender in a process of its own (server.mjs).
 */
import { randomUUID } from 'node:crypto';
import Head from 'next/head';
// Before the island, for its side effect: the island reads the rule list from a global when
// its module loads (kept apart from the binding, which only the server code below uses).
import '../lib/registration-rules.mjs';
import rules from '../lib/registration-rules.mjs';
import RegistrationForm from '../../../islands/RegistrationForm.js';
import { validateValues } from '../../../islands/lib/validate.js';
import { DATA_HEADER } from '../../../protocol/page-data.js';
import { Layout } from '../../../views/Layout.js';
import { saveRegistration } from '../lib/db.mjs';
import { crossSite, issueToken, overLimit } from '../lib/post-guards.mjs';
import { FormError, isBot, readRegistrationForm, toRegistration, valuesOf } from '../lib/form.mjs';

/** The island's props (as Eiland's formProps): a fresh or the posted submission key, a token and its cookies. */
function form(req, res, state, submissionKey = randomUUID()) {
  return { props: { form: { ...state, csrfToken: issueToken(req, res), submissionKey, form: REGISTRATION_FORM } } };
}

/** The registration form's identity, as Eiland's defineForm gives it to the island (src/forms/registration.ts). */
const REGISTRATION_FORM = { name: 'registration', action: '/aanmelden', island: 'RegistrationForm' };

function refuse(res, status, text) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(text);
  return { props: {} };
}

export async function getServerSideProps({ req, res }) {
  if (req.method !== 'POST') return form(req, res, { values: {}, errors: {} });

  const limited = await overLimit(req);
  if (limited) return refuse(res, limited.status, limited.text);
  let posted;
  try {
    posted = await readRegistrationForm(req);
  } catch (error) {
    if (error instanceof FormError) return refuse(res, error.status, error.message);
    throw error;
  }
  const { fields, submissionKey } = posted;
  req.body = fields;
  const refused = crossSite(req);
  if (refused) return refuse(res, refused.status, refused.text);
  if (isBot(fields)) return { redirect: { destination: '/aanmelden/bedankt', statusCode: 303 } };

  const values = valuesOf(fields);
  const errors = validateValues(rules, values);
  if (Object.keys(errors).length > 0) {
    res.statusCode = 422;
    if (req.headers[DATA_HEADER.toLowerCase()] === '1') {
      // The island's fetch: the messages as JSON, as Eiland answers it.
      res.setHeader(DATA_HEADER, '1');
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(JSON.stringify(errors));
      return { props: {} };
    }
    return form(req, res, { values, errors }, submissionKey);
  }
  const { id } = await saveRegistration(submissionKey, toRegistration(rules, values));
  return { redirect: { destination: `/aanmeldingen/${id}`, statusCode: 303 } };
}

export default function AanmeldenPage({ form }) {
  const failed = Object.keys(form.errors).length > 0;
  return (
    <>
      <Head>
        <title>{`${failed ? 'Fout: ' : ''}Aanmelden · Eiland`}</title>
      </Head>
      <Layout currentPath="/aanmelden">
        <RegistrationForm {...form} />
      </Layout>
    </>
  );
}
