/**
 * The one layout of every page (docs/pages.md §3): skip link, site navigation
 * with `aria-current`, `<main>`, footer.
 */
import type { ReactNode } from 'react';
import { ANNOUNCER_ID } from '../protocol/navigation.js';
import { menus } from '../protocol/routes.js';

/** The site's menus, from the routes that declare a place in them (protocol/routes.json, docs/pages.md §3). */
const MENUS = menus();

/** Props of {@link Layout}: the current path and the content of `<main>`. */
interface LayoutProps {
  currentPath: string;
  children: ReactNode;
}

/** Renders skip link, header with navigation, `<main id="inhoud">` and footer. */
export function Layout({ currentPath, children }: LayoutProps) {
  return (
    <>
      <a className="skip-link" href="#inhoud">
        Naar de inhoud
      </a>
      <header className="site-header">
        <a className="site-name" href="/">
          Eiland
        </a>
        <nav aria-label="Hoofdmenu">
          <ul>
            {MENUS.main.map((item) => (
              <li key={item.href}>
                <a href={item.href} aria-current={item.href === currentPath ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="inhoud" tabIndex={-1}>
        {children}
      </main>
      {/* The router announces each new page's title here (docs/navigation.md §3). */}
      <div id={ANNOUNCER_ID} className="visually-hidden" aria-live="polite" />
      <footer className="site-footer">
        <ul>
          {MENUS.footer.map((item) => (
            <li key={item.href}>
              <a href={item.href}>{item.label}</a>
            </li>
          ))}
        </ul>
      </footer>
    </>
  );
}
