/**
 * The one helper through which views render islands (docs/islands.md §1). It wraps
 * the island's server HTML in a marker carrying name, unique id, hydration
 * trigger and chunk URL, with the props the page carries as escaped JSON (no
 * script when there are none). Each island is its own React root with its own
 * `identifierPrefix`, on the server as in the browser.
 */
import { createContext, createElement, useContext, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { ISLAND_ATTRIBUTES as A, islandPrefix, serializeIslandProps, type HydrationTrigger } from '../protocol/islands.js';

/** What the page render gives the islands it contains. */
export interface IslandRenderContext {
  /** A new id, unique in this page, e.g. `i1`. */
  nextId(): string;
  /** URL of an island's chunk, from the build manifest. */
  fileOf(name: string): string;
  /** The islands the route declares (protocol/routes.json): their scripts are on the page. */
  declared: readonly string[];
}

/** Provided by the renderer for every page. */
export const IslandContext = createContext<IslandRenderContext | null>(null);

/** Props of {@link Island}. */
interface IslandProps<P extends object> {
  /** The island's name: its file name in `islands/` (or `test/islands/`). */
  name: string;
  component: ComponentType<P>;
  /** Plain JSON props; anything else fails the render naming island and prop. */
  props: P;
  /**
   * What of the props the page carries as JSON, when the island's module reads the rest back from
   * its own markup before it hydrates (a form: docs/forms.md §5); all of `props` when left out.
   */
  onPage?: object;
  trigger?: HydrationTrigger;
}

/**
 * Renders an island for hydration.
 * @throws Error when rendered outside a page render, or on a route that does
 *   not declare the island (its script would be missing)
 * @throws TypeError when a prop is not plain JSON
 */
export function Island<P extends object>({ name, component, props, onPage = props, trigger = 'load' }: IslandProps<P>) {
  const context = useContext(IslandContext);
  if (!context) throw new Error(`Island "${name}" rendered outside a page render`);
  if (!context.declared.includes(name)) throw new Error(`Island "${name}" is rendered on a route that does not declare it`);
  const id = context.nextId();
  const json = serializeIslandProps(name, onPage);
  const html = renderToString(createElement(component, props), { identifierPrefix: islandPrefix(id) });
  const marker = { [A.name]: name, [A.id]: id, [A.trigger]: trigger, [A.src]: context.fileOf(name) };
  return (
    <div {...marker}>
      {/* No props, no script: the runtime reads none as `{}` (docs/islands.md §1). */}
      {json !== '{}' && <script type="application/json" {...{ [A.props]: '' }} dangerouslySetInnerHTML={{ __html: json }} />}
      <div {...{ [A.root]: '' }} dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}
