import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from './helpers/build.js';
import { freePort, startNode } from './helpers/cluster.js';
import { processDb, type ProcessDb } from './helpers/process-db.js';

/** A fresh database has no account, so every start logs the setup address; info shows the serving line too. */
let db: ProcessDb;

beforeAll(async () => {
  await ensureBuilt(); // the build starts in a fraction of tsx's time
  db = await processDb({ LOG_LEVEL: 'info' });
}, 120_000);
afterAll(() => db?.close());

const SETUP_URL = /^http:\/\/\S+\/app\/setup\?token=\S+$/;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');

/** The log of one start: the node is stopped once ready, so every line of a start is in it. */
async function logOf(env: Record<string, string>): Promise<string[]> {
  const node = await startNode('log', { ...db.env, ...env }, { entry: 'dist' });
  expect(await node.stop()).toBe(0);
  return plain(node.output()).split('\n');
}

/** Readable lines: `[HH:MM:SS.mmm] LEVEL: message`, and the setup address alone on its line after a blank one. */
function expectPretty(lines: string[]): void {
  expect(lines, lines.join('\n')).toContainEqual(expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Redirectory is serving$/));
  expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
  const at = lines.findIndex((line) => SETUP_URL.test(line));
  expect(at, lines.join('\n')).toBeGreaterThan(1);
  expect(lines[at - 1]).toBe('');
  expect(lines[at - 2]).toMatch(/^\[[\d:.]+\] WARN: No account yet: open this address to create the first account$/);
}

it('LOG_FORMAT=pretty logs readable lines with the setup address alone on its line', async () => {
  expectPretty(await logOf({ LOG_FORMAT: 'pretty' }));
}, 60_000);

it('piped, by default, the log stays one JSON object a line, the setup address in setupUrl', async () => {
  const lines = (await logOf({})).filter((line) => line !== '');
  const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(records.find((r) => r.msg === 'Redirectory is serving')).toMatchObject({ level: 30, name: 'redirectory' });
  expect(records.find((r) => 'setupUrl' in r)).toMatchObject({ level: 40, setupUrl: expect.stringMatching(SETUP_URL) });
}, 60_000);

/** On a terminal (a pseudo-terminal made by script(1)), the default is the readable format. */
it('on a terminal, by default, the log is readable lines', async () => {
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...db.env, PORT: String(port), HOST: '127.0.0.1' };
  const term = spawn('script', ['-qec', `${process.execPath} dist/server.js`, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let output = '';
  term.stdout.on('data', (chunk: Buffer) => void (output += chunk));
  const exited = new Promise((resolve) => term.once('exit', resolve));
  try {
    const deadline = Date.now() + 45_000;
    while (!/Redirectory is serving/.test(output) || !/token=\S+\s*\n/.test(output)) {
      if (Date.now() > deadline || term.exitCode !== null) throw new Error(`no readable start on the terminal:\n${output}`);
      await sleep(100);
    }
  } finally {
    process.kill(-term.pid!, 'SIGTERM');
    await exited;
  }
  expectPretty(plain(output).split('\n'));
}, 60_000);
