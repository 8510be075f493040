/**
 * The app shell: Eiland's stylesheet (views/styles.css, as global CSS) and the viewport.
 */
import Head from 'next/head';
import '../../../views/styles.css';

export default function App({ Component, pageProps }) {
  return (
    <>
      <Head>
        <meta name="viewport" content="width=device-width, initial-scale=1" />
      </Head>
      <Component {...pageProps} />
    </>
  );
}
