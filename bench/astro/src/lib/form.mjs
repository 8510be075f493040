/**
 * The form island's props as Eiland's form route makes them: a fresh submission key (UUID) and
 * a CSRF-style token per render. Astro has no CSRF tokens of its own (its `security.checkOrigin`
 * compares origins); Eiland (csrf-csrf) makes a token as an HMAC-SHA256 of 32 random bytes,
 * `<hmac hex>.<random hex>`: the same work and size here.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';

const SECRET = randomBytes(32);

/** The registration form's identity, as Eiland's defineForm gives it to the island (src/forms/registration.ts). */
const REGISTRATION_FORM = { name: 'registration', action: '/aanmelden', island: 'RegistrationForm' };

/** An empty form's props. */
export function emptyForm() {
  const random = randomBytes(32).toString('hex');
  return { values: {}, errors: {}, csrfToken: `${createHmac('sha256', SECRET).update(random).digest('hex')}.${random}`, submissionKey: randomUUID(), form: REGISTRATION_FORM };
}
