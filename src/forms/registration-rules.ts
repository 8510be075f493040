/**
 * The registration form's rule list (product.md §4), derived once from the DTO's
 * class-validator metadata. `build.mjs` evaluates this module at build time and embeds the
 * list in the island's chunk, so no page carries it in its props (issue 9: it was most of
 * `/aanmelden`'s HTML).
 */
import type { FormRules } from '../../protocol/rules.js';
import { browserRules } from './browser-rules.js';
import { RegistrationDto } from './registration.js';

/** The rule list the `RegistrationForm` island evaluates. */
export const REGISTRATION_RULES: FormRules = browserRules(RegistrationDto);
