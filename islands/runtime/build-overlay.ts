/**
 * The development build-error overlay (docs/development.md §4): what the developer's own build printed,
 * shown over the page until the next good build, dismissible. Text only, never HTML.
 * Styled through the CSSOM (the CSP allows no inline style attributes). Browser code only.
 */

const ID = 'eiland-build-overlay';

/**
 * Shows (or updates) the overlay with esbuild's message.
 * @param message the build error as printed in the terminal, without colours
 */
export function showBuildOverlay(message: string): void {
  let overlay = document.getElementById(ID);
  if (!overlay) {
    overlay = document.createElement('div');
    overlay.id = ID;
    overlay.setAttribute('role', 'alertdialog');
    overlay.setAttribute('aria-labelledby', `${ID}-title`);
    overlay.setAttribute('data-testid', 'build-overlay');
    Object.assign(overlay.style, {
      position: 'fixed', inset: '0', zIndex: '2147483647', overflow: 'auto', padding: '1.5rem',
      background: 'rgba(24, 24, 27, 0.96)', color: '#fafafa', font: '14px/1.5 ui-monospace, monospace',
    });
    const title = document.createElement('h2');
    title.id = `${ID}-title`;
    title.textContent = 'Bouwfout: de vorige build draait nog';
    Object.assign(title.style, { margin: '0 0 1rem', color: '#fca5a5', font: 'bold 1.1rem system-ui, sans-serif' });
    const text = document.createElement('pre');
    text.lang = 'en';
    Object.assign(text.style, { whiteSpace: 'pre-wrap', margin: '0 0 1rem' });
    const close = document.createElement('button');
    close.type = 'button';
    close.textContent = 'Sluiten';
    close.addEventListener('click', () => overlay?.remove());
    overlay.append(title, text, close);
    document.body.append(overlay);
    close.focus();
  }
  overlay.querySelector('pre')!.textContent = message;
}
