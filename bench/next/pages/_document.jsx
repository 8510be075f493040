/**
 * The document around every page, as Eiland's views/Document.tsx: `<html lang="nl">`,
 * colour scheme, request id, favicon. Charset, viewport and title come from next/head.
 */
import { Head, Html, Main, NextScript } from 'next/document';

/** Eiland puts a per-request id in every page (docs/filter.md §3): the same work here. */
export default function Document({ requestId }) {
  return (
    <Html lang="nl">
      <Head>
        <meta name="color-scheme" content="light dark" />
        <meta name="request-id" content={requestId} />
        <link rel="icon" href="/favicon.ico" />
      </Head>
      <body>
        <Main />
        <NextScript />
      </body>
    </Html>
  );
}

Document.getInitialProps = async (ctx) => {
  const initial = await ctx.defaultGetInitialProps(ctx);
  return { ...initial, requestId: globalThis.crypto.randomUUID() };
};
