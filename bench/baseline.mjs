// The ceiling for any Node redirect service on this machine: bare node:http answering every GET with a 302.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  res.writeHead(302, { location: 'https://example.com/landing?from=baseline' });
  res.end();
});
server.keepAliveTimeout = 30_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
