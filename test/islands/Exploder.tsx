/**
 * Test-only island (never shipped): fails in the browser in the way its
 * `mode` names — during hydration, in a click handler, or in a render after a click.
 */
import { useState } from 'react';

/** Props of {@link Exploder}. */
export interface ExploderProps {
  mode: 'hydration' | 'handler' | 'render';
}

/** A button that fails as asked. */
export default function Exploder({ mode }: ExploderProps) {
  const [broken, setBroken] = useState(false);
  if (mode === 'hydration' && typeof document !== 'undefined') throw new Error('Eiland proef-fout bij hydratatie');
  if (broken) throw new Error('Eiland proef-fout bij renderen');
  const onClick = () => {
    if (mode === 'handler') throw new Error('Eiland proef-fout in handler');
    setBroken(true);
  };
  return (
    <button type="button" className="exploder" onClick={onClick}>
      Ontplof
    </button>
  );
}
