/**
 * Beheer's roles (docs/beheer.md §1, §3): what each may do, and their Dutch names.
 */
import type { Role } from '../storage/staff-types.js';

/** Every role, weakest first: a role may do what those before it may. */
export const ROLES: readonly Role[] = ['reader', 'admin'];

/** A role's name as staff read it. */
export const ROLE_NAMES: Readonly<Record<Role, string>> = { reader: 'lezer', admin: 'beheerder' };

/** Who may use a beheer route: anyone (the login, a password link) or an account of at least a role. */
export type Access = 'anyone' | Role;

/**
 * Whether a role may use a route that needs another.
 * @param role the account's role
 * @param need the route's
 */
export function allows(role: Role, need: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(need);
}

/**
 * The role a command line names, in English or Dutch.
 * @param name e.g. `reader`, `beheerder`
 * @throws RangeError naming the roles when it is none
 */
export function roleNamed(name: string): Role {
  const role = ROLES.find((r) => r === name || ROLE_NAMES[r] === name);
  if (role === undefined) throw new RangeError(`Unknown role "${name}": use ${ROLES.map((r) => `${r} (${ROLE_NAMES[r]})`).join(' or ')}`);
  return role;
}
