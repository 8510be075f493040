/**
 * Start page (docs/pages.md §6): welcome, a hero image (docs/images.md §2, preloaded), links, and the number of registrations
 * in a Suspense boundary whose fallback reads well on its own (docs/streaming.md §2).
 */
import { Suspense, use } from 'react';
import { Image, useBuildImage } from '../Image.js';

/** The hero's layout width: the whole viewport on a phone, else main's 42rem (views/styles.css). */
export const HERO_SIZES = '(max-width: 42rem) 100vw, 42rem';

/** The page's `<h1>`: a welcome, where other pages repeat their title (docs/pages.md §6). */
export const WELCOME = 'Welkom bij Eiland';

/** The hero's alternative text (also its `og:image:alt`, docs/pages.md §8). */
export const HERO_ALT = 'Een getekend Hollands polderlandschap met een molen en sloten bij zonsopkomst';

/** Props from the start page's loader: the count arrives later than the shell. */
export interface StartProps {
  /** Resolves to the number of registrations, or null when it cannot be read. */
  registrations: Promise<number | null>;
}

function countSentence(count: number): string {
  if (count === 0) return 'Er zijn nog geen aanmeldingen.';
  if (count === 1) return 'Er is 1 aanmelding.';
  return `Er zijn ${count} aanmeldingen.`;
}

function RegistrationCount({ registrations }: StartProps) {
  const count = use(registrations);
  return <p className="count">{count === null ? 'Het aantal aanmeldingen is nu niet beschikbaar.' : countSentence(count)}</p>;
}

/** The start page. */
export function Start({ registrations }: StartProps) {
  const hero = useBuildImage('hero');
  return (
    <>
      <h1>{WELCOME}</h1>
      <Image
        {...hero}
        alt={HERO_ALT}
        sizes={HERO_SIZES}
        priority
        className="hero"
      />
      <p>
        Eiland is een kleine, snelle website in het Nederlands. Alles werkt ook zonder JavaScript, zelfs op een trage
        telefoon.
      </p>
      <ul className="links">
        <li>
          <a href="/aanmelden">Meld je aan</a> — het kost je een minuut.
        </li>
        <li>
          <a href="/over">Lees meer over deze site</a>.
        </li>
      </ul>
      <h2>Aanmeldingen</h2>
      <Suspense fallback={<p className="count">Het aantal aanmeldingen is nog niet bekend.</p>}>
        <RegistrationCount registrations={registrations} />
      </Suspense>
    </>
  );
}
