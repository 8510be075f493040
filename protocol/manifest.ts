/**
 * The build manifest (docs/islands.md §4): what a client build produced. One type, written by
 * the build (build/manifest.mjs), read by the server (src/assets/manifest.ts) and, in part
 * ({@link ClientManifest}), by the router in the browser from its public copy.
 */
import type { RouteKind } from './routes.js';

/** A script and the chunks it imports, transitively (for `modulepreload`). */
export interface ScriptRef {
  /** Its URL under `/assets/`. */
  file: string;
  /** URLs of the chunks it imports. */
  imports: string[];
}

/** An image the build rendered: its content-hashed URL under `/assets/images/` and size in pixels. */
export interface BuiltImage {
  src: string;
  width: number;
  height: number;
}

/** What the build knows of a declared route. */
export interface RouteAssets {
  kind: RouteKind;
  /** The islands it renders. */
  islands: string[];
  /** Every asset a page of it loads: stylesheet, runtime, island chunks and their imports. */
  assets: string[];
}

/** What a build produced. */
export interface BuildManifest {
  /** Identifies the build (changes with any asset); 12 characters. */
  buildId: string;
  /** URL of the content-hashed public copy of this manifest (`<meta name="eiland-manifest">`). */
  url: string;
  /** URL of the stylesheet. */
  styles: string;
  /** The client router: on every page (docs/navigation.md §2). */
  router: ScriptRef;
  /** The island runtime: loaded only on pages with islands (docs/islands.md §3). */
  runtime: ScriptRef;
  /** Each island's module, by name. */
  islands: Record<string, ScriptRef>;
  /**
   * URL of React's module (react, react-dom and scheduler), which every island imports: production
   * only; development imports React's own modules (docs/islands.md §4).
   */
  react?: string;
  /** The images the build rendered (`images/*.svg`), by source name (docs/images.md §3). */
  images: Record<string, BuiltImage>;
  /** Each declared route's kind, islands and assets, by path pattern. */
  routes: Record<string, RouteAssets>;
  /** The reload client (docs/development.md §2): development builds only. */
  reload?: ScriptRef;
}

/** What the router reads of the public manifest. */
export type ClientManifest = Pick<BuildManifest, 'buildId' | 'runtime' | 'routes'>;
