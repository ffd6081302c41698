import { describe, expect, it } from 'vitest';
import type { CompiledLink } from '../src/features/redirect/resolve/compile.js';
import { LinkSlots } from '../src/features/redirect/resolve/link-slots.js';

const link = (id: number, destination: string) =>
  ({ id, owner: id % 7, expiresAt: id % 3 ? 0 : 1e12 + id, destination, meta: { title: '', description: '', image: '' } }) as CompiledLink;

/** The off-heap table against a Map, through puts, rewrites, removes, passes and sweeps that grow and compact it. */
describe('link slots', () => {
  it('answers as a Map would', () => {
    const slots = new LinkSlots();
    const model = new Map<string, { id: number; destination: string; pass: number }>();
    let seed = 1;
    const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    let pass = 1;
    for (let step = 0; step < 60_000; step++) {
      const host = 1 + random(3);
      const alias = `a${random(5000)}${random(4) === 0 ? 'é' : ''}`;
      const key = `${host}/${alias}`;
      const op = random(10);
      if (op < 6) {
        const destination = `https://example.com/${'x'.repeat(random(40))}/${step}`;
        expect(slots.put(host, alias, link(step, destination), pass)).toBe(true);
        model.set(key, { id: step, destination, pass });
      } else if (op < 9) {
        slots.remove(host, alias);
        model.delete(key);
      } else if (random(50) === 0) {
        slots.sweep(pass);
        for (const [k, v] of model) if (v.pass !== pass) model.delete(k);
        pass++;
      }
    }
    expect(slots.live).toBe(model.size);
    for (let host = 1; host <= 3; host++) {
      for (let i = 0; i < 5000; i++) {
        for (const alias of [`a${i}`, `a${i}é`]) {
          const slot = slots.find(host, alias);
          const want = model.get(`${host}/${alias}`);
          expect(slot === 0 ? undefined : { id: slots.ids[slot], destination: slots.destination(slot) }).toEqual(
            want && { id: want.id, destination: want.destination },
          );
        }
      }
    }
    expect(slots.put(1, 'ünïcode-ok', link(1, 'https://example.com/'), pass)).toBe(true);
    expect(slots.put(1, 'emoji-😀', link(1, 'https://example.com/'), pass)).toBe(false);
  });
});
