/**
 * `/`: Eiland's start page (views/pages/Start.tsx inside views/Layout.tsx), with the
 * registration count read per request with Eiland's storage module from its SQLite file.
 */
import Head from 'next/head';
import { useMemo } from 'react';
import { Layout } from '../../../views/Layout.js';
import { Start } from '../../../views/pages/Start.js';
import { registrationCount } from '../lib/db.mjs';

export async function getServerSideProps() {
  return { props: { count: await registrationCount() } };
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

export default function StartPage({ count }) {
  const registrations = useMemo(() => fulfilled(count), [count]);
  return (
    <>
      <Head>
        <title>Start · Eiland</title>
      </Head>
      <Layout currentPath="/">
        <Start registrations={registrations} />
      </Layout>
    </>
  );
}
