import { VerificationSlots } from './verification-slots.js';

describe('VerificationSlots', () => {
  it('gives out max slots at once, hands a released slot to the longest waiting, and times a wait out', async () => {
    const slots = new VerificationSlots(2, 2, 200);
    expect(await slots.acquire()).toBe(true);
    expect(await slots.acquire()).toBe(true);
    const first = slots.acquire();
    const second = slots.acquire();
    expect(await slots.acquire()).toBe(false); // the queue is full
    expect(slots.queued).toBe(2);
    slots.release();
    expect(await first).toBe(true);
    expect(slots.inUse).toBe(2);
    expect(await second).toBe(false); // nobody released within 200 ms
    expect(slots.queued).toBe(0);
    slots.release();
    slots.release();
    expect(slots.inUse).toBe(0);
  });
});
