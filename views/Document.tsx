/**
 * The HTML document around every page (docs/pages.md §3, §8): `<html lang="nl">`, title,
 * description, robots, canonical URL and Open Graph, request id, stylesheet, and the layout.
 */
import type { ReactNode } from 'react';
import { BOT_ATTRIBUTE, META } from '../protocol/meta.js';
import { Layout } from './Layout.js';

/** What the head says to search engines and link previews (docs/pages.md §8–§9). */
export interface DocumentMeta {
  /** `<meta name="description">` and `og:description`. */
  description?: string;
  /** `<meta name="robots" content="noindex">`. */
  noindex: boolean;
  /** The page's absolute canonical URL (`PUBLIC_ORIGIN` + path): `<link rel="canonical">`, `og:url` and the rest of Open Graph. */
  canonical?: string;
  /** The absolute URL of the page's `og:image`, its size in pixels and its alternative text. */
  image?: { url: string; width: number; height: number; alt: string };
}

/**
 * The code of the page's inline script last in `<body>`: none. A classic script waits for the
 * stylesheets before it, so the parse ends only once the stylesheet has loaded (docs/pages.md §3,
 * docs/performance.md §7).
 */
export const STYLESHEET_WAIT = ';';

/** Props of {@link Document}. */
interface DocumentProps {
  /** Full `<title>` text. */
  title: string;
  /** Request id, shown in `<meta name="request-id">` (docs/filter.md §3). */
  requestId: string;
  /** URL of the stylesheet from the build manifest. */
  stylesheet: string;
  /** Description, robots, canonical URL and Open Graph. */
  meta: DocumentMeta;
  /** Path of the current page, for `aria-current` in the navigation. */
  currentPath: string;
  /** Extra `<head>` content, e.g. `<meta name="robots">` (development: the reload client). */
  head?: ReactNode;
  /** URL of the build manifest (docs/islands.md §4: every page carries it). */
  manifestUrl: string;
  /** Module scripts, each run as soon as it arrives (`async`): the router. */
  scripts: string[];
  /** Where islands are: the island runtime, then the modules it needs, loaded by the router after the first paint. */
  afterPaint: string[];
  /** CSP nonce for the module scripts and the parse's inline wait for the stylesheet. */
  nonce: string | undefined;
  /** Served to a bot or a text browser: marked, so the router prefetches nothing (docs/navigation.md §6). */
  bot?: boolean;
  /** The content of `<main>`. */
  children: ReactNode;
}

/** The head's description, robots, canonical and Open Graph elements. */
function MetaElements({ title, meta }: { title: string; meta: DocumentMeta }) {
  return (
    <>
      {meta.description !== undefined && <meta name="description" content={meta.description} />}
      {meta.noindex && <meta name="robots" content="noindex" />}
      {meta.canonical !== undefined && (
        <>
          <link rel="canonical" href={meta.canonical} />
          <meta property="og:type" content="website" />
          <meta property="og:locale" content="nl_NL" />
          <meta property="og:site_name" content="Eiland" />
          <meta property="og:title" content={title} />
          {meta.description !== undefined && <meta property="og:description" content={meta.description} />}
          <meta property="og:url" content={meta.canonical} />
          {meta.image && (
            <>
              <meta property="og:image" content={meta.image.url} />
              <meta property="og:image:width" content={String(meta.image.width)} />
              <meta property="og:image:height" content={String(meta.image.height)} />
              <meta property="og:image:alt" content={meta.image.alt} />
            </>
          )}
        </>
      )}
    </>
  );
}

/** Renders the whole document; the streaming renderer renders this root. */
export function Document({ title, requestId, stylesheet, meta, currentPath, head, manifestUrl, scripts, afterPaint, nonce, bot = false, children }: DocumentProps) {
  return (
    <html lang="nl" {...(bot ? { [BOT_ATTRIBUTE]: '' } : {})}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name={META.requestId} content={requestId} />
        <meta name={META.manifest} content={manifestUrl} />
        <title>{title}</title>
        <MetaElements title={title} meta={meta} />
        {/* First in <head> (a stylesheet resource); the router at low priority and the islands'
            modules only after the first paint: nothing the first paint does not need competes
            with the CSS it waits for (docs/islands.md §3, docs/performance.md §7). */}
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <link rel="icon" href="/favicon.ico" />
        {afterPaint.length > 0 && <meta name={META.afterPaint} content={afterPaint.join(' ')} />}
        {scripts.map((src) => (
          <script key={src} type="module" src={src} nonce={nonce} fetchPriority="low" async />
        ))}
        {head}
      </head>
      <body>
        <Layout currentPath={currentPath}>{children}</Layout>
        {/* The parse ends (DOMContentLoaded, where Chromium's autofill reads a form's fields and
            lays the page out) only once the stylesheet has loaded: a classic script waits for it.
            The router, async, neither holds the parse's end nor runs in its task
            (docs/pages.md §3, docs/performance.md §7). */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLESHEET_WAIT }} />
      </body>
    </html>
  );
}
