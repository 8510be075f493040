/**
 * The registration form's rule list (docs/forms.md §5), derived once from the DTO's
 * class-validator metadata. The build (build/rules.mjs) evaluates this module and embeds the
 * list in the island's chunk, so no page carries it in its props (in props it would be most of
 * `/aanmelden`'s HTML).
 */
import type { FormRules } from '../../protocol/rules.js';
import { browserRules } from './browser-rules.js';
import { RegistrationDto } from './registration.js';

/** The rule list the `RegistrationForm` island evaluates. */
export const REGISTRATION_RULES: FormRules = browserRules(RegistrationDto);
