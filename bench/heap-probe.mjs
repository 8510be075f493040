// Preloaded by the benchmark's soak (`node --import bench/heap-probe.mjs …`), never by Eiland
// itself: prints the process's heap figures as one JSON line on stderr every second.
setInterval(() => {
  const { heapUsed, heapTotal, rss } = process.memoryUsage();
  process.stderr.write(`${JSON.stringify({ heapUsed, heapTotal, rss })}\n`);
}, 1000).unref();
