/**
 * `/`: Eiland's start page (views/pages/Start.tsx inside views/Layout.tsx, its hero from Eiland's
 * build manifest), with the registration count read per request with Eiland's storage module
 * from its SQLite file.
 */
import Head from 'next/head';
import { useMemo } from 'react';
import { Layout } from '../../../views/Layout.js';
import { BuildImagesContext } from '../../../views/Image.js';
import { Start } from '../../../views/pages/Start.js';
import { registrationCount } from '../lib/db.mjs';
import { buildImages } from '../lib/images.mjs';

export async function getServerSideProps() {
  return { props: { count: await registrationCount(), images: buildImages() } };
}

/**
 * Start reads the count with `use(promise)` inside Suspense (Eiland streams it).
 * The pages router cannot stream: a promise already marked fulfilled makes `use`
 * return at once, on the server and when hydrating.
 */
function fulfilled(value) {
  const promise = Promise.resolve(value);
  promise.status = 'fulfilled';
  promise.value = value;
  return promise;
}

export default function StartPage({ count, images }) {
  const registrations = useMemo(() => fulfilled(count), [count]);
  return (
    <>
      <Head>
        <title>Start · Eiland</title>
      </Head>
      <Layout currentPath="/">
        <BuildImagesContext value={images}>
          <Start registrations={registrations} />
        </BuildImagesContext>
      </Layout>
    </>
  );
}
