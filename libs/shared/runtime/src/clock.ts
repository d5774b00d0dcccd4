import { Global, Injectable, Module } from '@nestjs/common';

/** Injectable time, so tests move the clock instead of sleeping. One per process, from PlatformModule. */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Milliseconds since the epoch: what `Date.now()` would say, moved by the test hook. */
  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  nowSec(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Test hook: moves this process's notion of time forward. */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

/** Provides the process's one Clock to every module (imported by PlatformModule). */
@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}
