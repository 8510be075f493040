/**
 * The site's menus (docs/pages.md §3) come from the route table: each menu's links in the order
 * the routes declare, a table that cannot make a menu refused, and the layout rendering the
 * table's menus on every page, `aria-current` on the page's own link only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { menus, type MenuEntry, type RouteDeclaration } from '../protocol/routes.js';
import { Layout } from '../views/Layout.js';
import { PAGE_PATHS } from './helpers/site-pages.js';

/** A declared route of a made-up table, in a menu or not. */
const route = (path: string, menu?: MenuEntry): RouteDeclaration => ({ path, kind: 'static', islands: [], ...(menu ? { menu } : {}) });

/** The links inside the first element `tag` of some HTML, with whether each is the current page. */
function linksIn(html: string, tag: string): Array<{ href: string; label: string; current: boolean }> {
  const inside = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html)?.[1] ?? '';
  return [...inside.matchAll(/<a href="([^"]*)"( aria-current="page")?>([^<]*)<\/a>/g)].map(([, href, current, label]) => ({ href: href!, label: label!, current: current !== undefined }));
}

describe('the menus of a route table', () => {
  it("lists each menu's links in their declared order, not the table's, and leaves routes without a place out", () => {
    const table = [
      route('/b', { name: 'main', order: 2, label: 'Bé' }),
      route('/x'),
      route('/f', { name: 'footer', order: 1, label: 'Ef' }),
      route('/a', { name: 'main', order: 1, label: 'A' }),
    ];
    assert.deepEqual(menus(table), {
      main: [
        { href: '/a', label: 'A' },
        { href: '/b', label: 'Bé' },
      ],
      footer: [{ href: '/f', label: 'Ef' }],
    });
  });

  it('refuses a table that cannot make a menu, naming the routes', () => {
    const cases: Array<[what: string, table: RouteDeclaration[], error: { name: string; message: string }]> = [
      ['a parameter', [route('/a/:id', { name: 'main', order: 1, label: 'A' })], { name: 'TypeError', message: 'Route "/a/:id" is in the menu "main" but has a parameter: a menu links a fixed path' }],
      ['one place twice', [route('/a', { name: 'footer', order: 1, label: 'A' }), route('/b', { name: 'footer', order: 1, label: 'B' })], { name: 'RangeError', message: 'Routes "/a" and "/b" both take place 1 in the menu "footer"' }],
      ['another menu', [route('/a', { name: 'zij' as MenuEntry['name'], order: 1, label: 'A' })], { name: 'TypeError', message: 'Route "/a" names the menu "zij", which is not one of main, footer' }],
    ];
    for (const [what, table, error] of cases) assert.throws(() => menus(table), error, what);
  });
});

describe('the layout', () => {
  it("renders the table's navigation and footer on every page, aria-current on the page's own link only", () => {
    const { main, footer } = menus();
    assert.ok(main.length > 0 && footer.length > 0, 'the site has both menus');
    for (const path of [...PAGE_PATHS, '/bestaat-niet']) {
      const html = renderToStaticMarkup(<Layout currentPath={path}>{null}</Layout>);
      assert.deepEqual(linksIn(html, 'nav'), main.map((link) => ({ ...link, current: link.href === path })), path);
      assert.deepEqual(linksIn(html, 'footer'), footer.map((link) => ({ ...link, current: false })), path);
    }
  });
});
