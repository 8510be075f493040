/**
 * The HTML document around every page (docs/pages.md §3): `<html lang="nl">`,
 * title, request id, stylesheet, and the layout.
 */
import type { ReactNode } from 'react';
import { BOT_ATTRIBUTE, META } from '../protocol/meta.js';
import { Layout } from './Layout.js';

/** Props of {@link Document}. */
export interface DocumentProps {
  /** Full `<title>` text. */
  title: string;
  /** Request id, shown in `<meta name="request-id">` (docs/filter.md §3). */
  requestId: string;
  /** URL of the stylesheet from the build manifest. */
  stylesheet: string;
  /** Path of the current page, for `aria-current` in the navigation. */
  currentPath: string;
  /** Extra `<head>` content, e.g. `<meta name="robots">` (development: the reload client). */
  head?: ReactNode;
  /** URL of the build manifest (docs/islands.md §4: every page carries it). */
  manifestUrl: string;
  /** Module scripts to run at once: the router. */
  scripts: string[];
  /** Where islands are: the island runtime, then the modules it needs, loaded by the router after the first paint. */
  afterPaint: string[];
  /** CSP nonce for the module scripts. */
  nonce: string | undefined;
  /** Served to a bot or a text browser: marked, so the router prefetches nothing (docs/navigation.md §6). */
  bot?: boolean;
  /** The content of `<main>`. */
  children: ReactNode;
}

/** Renders the whole document; the streaming renderer renders this root. */
export function Document({ title, requestId, stylesheet, currentPath, head, manifestUrl, scripts, afterPaint, nonce, bot = false, children }: DocumentProps) {
  return (
    <html lang="nl" {...(bot ? { [BOT_ATTRIBUTE]: '' } : {})}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name={META.requestId} content={requestId} />
        <meta name={META.manifest} content={manifestUrl} />
        <title>{title}</title>
        {/* First in <head> (a stylesheet resource); the router at low priority and the islands'
            modules only after the first paint: nothing the first paint does not need competes
            with the CSS it waits for (docs/islands.md §3, docs/performance.md §7). */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <link rel="icon" href="/favicon.ico" />
        {afterPaint.length > 0 && <meta name={META.afterPaint} content={afterPaint.join(' ')} />}
        {scripts.map((src) => (
          <script key={src} type="module" src={src} nonce={nonce} fetchPriority="low" />
        ))}
        {head}
      </head>
      <body>
        <Layout currentPath={currentPath}>{children}</Layout>
      </body>
    </html>
  );
}
