/**
 * Eiland's registration form island (islands/RegistrationForm.tsx), with its rule list registered
 * first, as Eiland's build does from the island's entry module (build/form-islands.mjs).
 */
import '../lib/registration-rules.mjs';
import RegistrationForm from '../../../../islands/RegistrationForm.js';

export default RegistrationForm;
