// Small network helpers: a free loopback port and an HTTP status probe.
import http from 'node:http';
import net from 'node:net';

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** HTTP status of a GET, or 0 when nothing answers. */
export function httpStatus(url, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.setTimeout(timeoutMs, () => {
      req.destroy();
      resolve(0);
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
