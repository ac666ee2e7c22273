import { type PresenceFrame, presenceFrameSchema } from "../../shared/realtime-presence";

/** A text frame from a browser as a presence frame (the shared schema), or null. */
export function readPresenceFrame(text: string): PresenceFrame | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = presenceFrameSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
