/**
 * The press guard (docs/forms.md §5: no lost click). A blur message shown between a press and
 * its click (the blur comes with the press) would push the pressed button from under the
 * pointer, and the click would land elsewhere. So layout changes made during a press run once
 * the click that ends it has reached the window (or shortly after a release without a click:
 * a drag, or a handler that stopped the click); with no press under way (keyboard, a blur by
 * script) they run at once. Browser code only.
 */
import { useEffect, useRef } from 'react';

/** What a click acts on: a press on these is guarded. */
const CLICKABLE = 'button, a[href], label, input[type="checkbox"], input[type="radio"], input[type="submit"], select';

/** After a release that did not end in a click, held updates wait no longer than this, in ms. */
const PRESS_RELEASE_MS = 700;

/**
 * A hook that holds layout changes while a pointer is pressed.
 * @returns `afterPress(update)`: runs `update` now, or once the press is over
 */
export function usePressGuard(): (update: () => void) => void {
  const pressing = useRef(false);
  const held = useRef<(() => void)[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      clearTimeout(timer);
      pressing.current = false;
      for (const update of held.current.splice(0)) update();
    };
    // Only a press on something that acts on click: a press in a text field focuses it at once.
    const down = (event: Event) => {
      if (!(event.target as Element | null)?.closest?.(CLICKABLE)) return;
      clearTimeout(timer);
      pressing.current = true;
    };
    // On the window, as the click bubbles out: its target is decided (the press is over), so
    // the held updates may move things now; the submit the click starts follows the dispatch.
    const clicked = () => flush();
    const released = () => {
      clearTimeout(timer);
      timer = setTimeout(flush, PRESS_RELEASE_MS);
    };
    const events: [string, (event: Event) => void][] = [
      ['pointerdown', down],
      ['pointerup', released],
      ['pointercancel', released],
    ];
    for (const [type, listener] of events) document.addEventListener(type, listener, true);
    window.addEventListener('click', clicked);
    return () => {
      clearTimeout(timer);
      for (const [type, listener] of events) document.removeEventListener(type, listener, true);
      window.removeEventListener('click', clicked);
    };
  }, []);
  return (update) => {
    if (pressing.current) held.current.push(update);
    else update();
  };
}
