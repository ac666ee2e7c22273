/** Where the server reads the time: the system clock, or a test clock moved by hand. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
