/**
 * Every form of the site (docs/forms.md §8): the build derives each one's browser rule list from
 * its DTO and embeds it in its island's chunk, and the tests check each one's server and browser
 * validation against each other. A form not listed here has no rule list in the browser.
 */
import { contactForm } from './contact.js';
import type { FormDefinition } from './define.js';
import { registrationForm } from './registration.js';

/** The forms, by name. */
export const FORMS: readonly FormDefinition[] = [registrationForm, contactForm];
