// The outside world of the isolation floods, all on loopback: a tarpit that accepts connections and never
// answers, a sink that answers 200 at once, and a port where nothing listens (connections refused).
import { createServer as createHttp } from 'node:http';
import { createServer as createTcp } from 'node:net';
import { freePort } from './proc.mjs';

/** Listens on a free loopback port; answers the base URL and a close() that also ends every connection held. */
async function listen(server, sockets) {
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    held: () => sockets.size,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

export async function outside() {
  const tarpit = await listen(
    createTcp((socket) => socket.on('data', () => {})), // reads the request, never writes a byte
    new Set(),
  );
  let sunk = 0;
  const sink = await listen(
    createHttp((req, res) => {
      req.resume();
      req.on('end', () => {
        sunk++;
        res.end('ok');
      });
    }),
    new Set(),
  );
  const dead = `http://127.0.0.1:${await freePort()}`;
  return {
    tarpit,
    sink,
    dead,
    sunk: () => sunk,
    close: () => Promise.all([tarpit.close(), sink.close()]),
  };
}
