import { validate } from 'class-validator';
import { ApprovalDecisionBody } from './approval-decision-body';

const messagesFor = async (body: Record<string, unknown>) =>
  (await validate(Object.assign(new ApprovalDecisionBody(), body))).map((e) => [e.property, Object.values(e.constraints ?? {})]);

describe('ApprovalDecisionBody', () => {
  it('takes no actor, or an actor object of any entries (the library keeps the flat scalar ones)', async () => {
    expect(await messagesFor({})).toEqual([]);
    expect(await messagesFor({ actor: {} })).toEqual([]);
    expect(await messagesFor({ actor: { name: 'Ann', team: { id: 1 }, tags: ['a'] } })).toEqual([]);
  });

  it.each([['a string', 'Ann'], ['a number', 42], ['a boolean', true], ['a list', ['Ann']], ['null', null]])('refuses %s as actor', async (_name, actor) => {
    expect(await messagesFor({ actor })).toEqual([['actor', ['must be an object']]]);
  });
});
