/** Test-only island (never shipped): a counter, to show other islands keep working. */
import { useState } from 'react';

/** Counts clicks. */
export default function Teller({ start }: { start: number }) {
  const [count, setCount] = useState(start);
  return (
    <button type="button" className="teller" onClick={() => setCount((n) => n + 1)}>
      {`Geteld: ${count}`}
    </button>
  );
}
