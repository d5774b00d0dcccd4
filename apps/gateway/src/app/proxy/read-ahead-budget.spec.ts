import { ReadAheadBudget, ReadAheadBudgetSpentError } from './read-ahead-budget';

describe('ReadAheadBudget', () => {
  it('reserves shares while they fit and refuses one that does not, until room is released', () => {
    const budget = new ReadAheadBudget(100);
    const a = budget.reserve(60);
    const b = budget.reserve(40);
    expect(budget.usedBytes).toBe(100);
    expect(() => budget.reserve(1)).toThrow(ReadAheadBudgetSpentError);
    a();
    a();
    expect(budget.usedBytes).toBe(40);
    budget.reserve(50);
    b();
    expect(budget.usedBytes).toBe(50);
  });

  it('clamps a share to the whole budget', () => {
    const budget = new ReadAheadBudget(100);
    const release = budget.reserve(1_000);
    expect(budget.usedBytes).toBe(100);
    release();
    expect(budget.usedBytes).toBe(0);
  });

  it('counts a share of NaN bytes as the whole budget, so refusals keep working', () => {
    const budget = new ReadAheadBudget(100);
    const release = budget.reserve(Number.NaN);
    expect(budget.usedBytes).toBe(100);
    expect(() => budget.reserve(1)).toThrow(ReadAheadBudgetSpentError);
    release();
    expect(budget.usedBytes).toBe(0);
  });
});
