// A development server process started ahead of need (docs/development.md §1). The runner starts
// one while the developer reads the page, named with the packages the server bundle leaves to
// node_modules; it loads them (most of a cold start, class-validator and libphonenumber-js above
// all), says `warm`, and imports the server bundle once the runner sends
// `{ type: 'start', entry }`, so a restart costs only the bundle's own start.
import { pathToFileURL } from 'node:url';

/** Until it runs a server, this process ends with the runner. */
const quit = () => process.exit(0);
process.once('disconnect', quit);

for (const name of process.argv.slice(2)) {
  // A package that fails to load fails again, with its error, when the bundle imports it.
  await import(name).catch(() => {});
}

process.on('message', function start(/** @type {{ type?: string, entry?: string }} */ message) {
  if (message?.type !== 'start' || typeof message.entry !== 'string') return;
  process.off('message', start);
  process.off('disconnect', quit); // the server shuts down gracefully on its own (src/dev/main.ts)
  void import(pathToFileURL(message.entry).href);
});
process.send?.({ type: 'warm' });
