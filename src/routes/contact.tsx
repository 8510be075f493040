/**
 * The contact routes (docs/forms.md §9): the form and its POST (PRG to a thank-you page that shows
 * no personal data), and that thank-you page.
 */
import ContactForm from '../../islands/ContactForm.js';
import { ContactBedankt } from '../../views/pages/ContactBedankt.js';
import type { RateLimit } from '../filter/rate-limit.js';
import { contactForm, contactMessages } from '../forms/contact.js';
import { formRoute, thankYouRoute } from '../forms/route.js';
import type { Storage } from '../storage/types.js';
import type { AnyPageRoute } from '../route-table.js';

/** Where a sent (or honeypot-filled) contact form goes. */
const CONTACT_THANKS_PATH = '/contact/bedankt';

/**
 * The routes of the contact form.
 * @param storage where contact messages are kept
 * @param rateLimit posts per client address and window (docs/forms.md §7; `FORM_RATE_LIMIT`), counted for this form alone
 */
export function contactRoutes(storage: Storage, rateLimit: RateLimit): AnyPageRoute[] {
  const form = formRoute({
    form: contactForm,
    title: 'Contact',
    description: 'Stuur Eiland een vraag, een klacht of een compliment. Het formulier werkt ook zonder JavaScript.',
    island: ContactForm,
    thankYou: CONTACT_THANKS_PATH,
    rateLimit,
    async accept({ value, submissionKey, log }) {
      const { created } = await contactMessages(storage).save(submissionKey, value);
      // The subject is a category, not personal data; the message and its sender are never logged.
      log.info({ event: 'contact_received', form: 'contact', subject: value.onderwerp, repeated: !created }, 'contact_received');
      return { redirect: CONTACT_THANKS_PATH };
    },
  });
  return [form, thankYouRoute(CONTACT_THANKS_PATH, 'Bedankt voor je bericht', 'Je bericht aan Eiland is ontvangen.', ContactBedankt)];
}
