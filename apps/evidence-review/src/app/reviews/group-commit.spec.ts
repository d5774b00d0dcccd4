import { GroupCommit } from './group-commit';

describe('GroupCommit', () => {
  it('writes a lone item at once and settles its caller after the write', async () => {
    const writes: number[][] = [];
    const gc = new GroupCommit<number>(async (items) => void writes.push(items), 10);
    await gc.add(1);
    expect(writes).toEqual([[1]]);
  });

  it('batches items that arrive while a write is in flight, within the size bound', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const gc = new GroupCommit<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
    }, 2);
    const first = gc.add(1);
    const rest = [gc.add(2), gc.add(3), gc.add(4)];
    let settled = false;
    void first.then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3], [4]]);
  });

  it('fails only the caller whose item the store refuses: a failed batch is written again item by item', async () => {
    const writes: string[][] = [];
    let release!: () => void;
    const gc = new GroupCommit<string>(async (items) => {
      writes.push(items);
      if (items[0] === 'a') await new Promise<void>((r) => (release = r));
      if (items.includes('b')) throw new Error('insert failed');
    }, 10);
    const a = gc.add('a');
    const b = gc.add('b');
    const c = gc.add('c');
    const d = gc.add('d');
    release();
    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow('insert failed');
    await expect(c).resolves.toBeUndefined();
    await expect(d).resolves.toBeUndefined();
    expect(writes).toEqual([['a'], ['b', 'c', 'd'], ['b'], ['c'], ['d']]);
    await expect(gc.add('e')).resolves.toBeUndefined();
  });

  it('fails every caller whose own write fails, each with its own error', async () => {
    let release!: () => void;
    const gc = new GroupCommit<string>(async (items) => {
      if (items[0] === 'a') await new Promise<void>((r) => (release = r));
      if (items.length > 1) throw new Error('batch failed');
      if (items[0] !== 'a') throw new Error(`no ${items[0]}`);
    }, 10);
    const a = gc.add('a');
    const b = gc.add('b');
    const c = gc.add('c');
    release();
    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow('no b');
    await expect(c).rejects.toThrow('no c');
  });

  it('fails a whole batch at once when the store, not an item, failed (no item-by-item retry behind an outage)', async () => {
    const writes: string[][] = [];
    let release!: () => void;
    const down = Object.assign(new Error('connection timeout'), { code: 'ETIMEDOUT' });
    const gc = new GroupCommit<string>(
      async (items) => {
        writes.push(items);
        if (items[0] === 'a') await new Promise<void>((r) => (release = r));
        if (items.length > 1) throw down;
      },
      10,
      (e) => e !== down,
    );
    const a = gc.add('a');
    const rest = ['b', 'c', 'd'].map((x) => gc.add(x));
    release();
    await expect(a).resolves.toBeUndefined();
    for (const p of rest) await expect(p).rejects.toBe(down);
    expect(writes).toEqual([['a'], ['b', 'c', 'd']]);
  });
});
