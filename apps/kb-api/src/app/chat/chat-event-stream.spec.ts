import { asksForEventStream } from './chat-event-stream';

describe('asksForEventStream', () => {
  it.each([
    ['text/event-stream', true],
    ['application/json, text/event-stream', true],
    ['Text/Event-Stream; charset=utf-8', true],
    ['text/event-stream;q=0.5, application/json', false],
    ['text/event-stream, application/json;q=0.9', true],
    ['text/event-stream;q=0, application/json', false],
    ['text/event-stream; q=0.000', false],
    ['text/event-stream;q=abc', false],
    ['*/*', false],
    ['text/*', false],
    ['application/json', false],
    ['', false],
    [undefined, false],
  ])('%j -> %s', (accept, expected) => {
    expect(asksForEventStream(accept)).toBe(expected);
  });
});
