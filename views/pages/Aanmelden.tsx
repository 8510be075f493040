/**
 * The page content of `/aanmelden` (product.md §4): the registration form,
 * rendered as the `RegistrationForm` island, so it works without JavaScript
 * and validates inline with it.
 */
import RegistrationForm, { type RegistrationFormProps } from '../../islands/RegistrationForm.js';
import { Island } from '../Island.js';

/** Props of {@link Aanmelden}: those of the island. */
export type AanmeldenProps = RegistrationFormProps;

/** The registration page content. */
export function Aanmelden(props: AanmeldenProps) {
  return <Island name="RegistrationForm" component={RegistrationForm} props={props} />;
}
