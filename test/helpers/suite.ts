/**
 * A suite's resources (an app, a process, a database cluster, a project copy): made in a `before`
 * hook, disposed of in an `after` hook, and read through a handle that is valid inside the tests.
 */
import { after, before } from 'node:test';

/**
 * Registers `before`/`after` hooks in the current suite (or, called at the top of a file, for the
 * whole file) that make a resource and dispose of it, and returns a handle to it.
 * Hooks run in the order they are registered: a resource registered earlier is made earlier and
 * disposed of earlier; one that must outlive another is made in an enclosing suite (or at the top
 * of the file).
 * @param what the helper's name for its errors, e.g. `useApp()`
 * @param make makes the resource (in `before`)
 * @param dispose disposes of it (in `after`; not called when `make` failed)
 * @returns a handle whose every member reads the resource made (methods are bound to it)
 * @throws Error when a member of the handle is read outside the suite's tests (before its
 *   `before` hook made the resource, or after its `after` hook disposed of it), naming the member
 */
export function useResource<T extends object>(what: string, make: () => Promise<T>, dispose: (made: T) => Promise<unknown>): T {
  let made: T | undefined;
  before(async () => {
    made = await make();
  });
  after(async () => {
    const resource = made;
    made = undefined;
    if (resource) await dispose(resource);
  });
  return new Proxy({} as T, {
    get(_, member) {
      if (!made) throw new Error(`${what}: ${String(member)} was read outside the tests of the suite that made it (it lives from the suite's before hook to its after hook)`);
      const value: unknown = Reflect.get(made, member);
      return typeof value === 'function' ? value.bind(made) : value;
    },
  });
}
