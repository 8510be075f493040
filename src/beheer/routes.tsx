/**
 * Beheer's route table (docs/beheer.md §3): every route with the role it needs, in one list that
 * src/beheer/route.ts mounts and the tests walk, in the order a request is matched. The login and
 * a password link are for anyone (routes/access.tsx); reading, listing and exporting need a
 * `lezer` (routes/lists.tsx, routes/submissions.tsx); erasing, marking answered and the audit log a
 * `beheerder`.
 */
import type { FormDefinition } from '../forms/define.js';
import { formAdmins } from './form-admin.js';
import type { BeheerRoute } from './route.js';
import { accessRoutes } from './routes/access.js';
import { listRoutes } from './routes/lists.js';
import { formsOf } from './routes/shared.js';
import { submissionRoutes } from './routes/submissions.js';

export { PAGE_SIZE } from './routes/lists.js';

/**
 * Beheer's routes.
 * @param forms the site's forms: every one that keeps its submissions gets a list
 */
export function beheerRoutes(forms: readonly FormDefinition[]): BeheerRoute[] {
  const lookup = formsOf(formAdmins(forms));
  const table = [...accessRoutes(), ...listRoutes(lookup), ...submissionRoutes(lookup)];
  // A submission's id opens a person's own page (docs/pages.md §7), so it is masked in every log
  // line; the mask takes fixed segments before a secret, so each form gets its routes.
  return table.flatMap((route) => (route.path.includes(':form/:id') ? lookup.admins.map((admin) => ({ ...route, path: route.path.replace(':form', admin.name), secretParams: ['id'] })) : [route]));
}
