import { Injectable } from '@nestjs/common';

/** Injectable time, so tests move the clock instead of sleeping. */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  nowSec(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** Test hook: moves this process's notion of time forward. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
