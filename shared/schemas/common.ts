import { z } from "zod";

export const emailSchema = z
  .string({ error: "Email is required" })
  .trim()
  .toLowerCase()
  .max(254, "Email is too long")
  .pipe(z.email({ error: "Please enter a valid email address" }));

export const passwordSchema = z
  .string({ error: "Password is required" })
  .min(6, "Password must be at least 6 characters long")
  .max(200, "Password is too long");

export const uuidSchema = z.uuid({ error: "Not found" });

export const errorResponseSchema = z.object({ message: z.string() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const successResponseSchema = z.object({ success: z.literal(true), message: z.string() });
export type SuccessResponse = z.infer<typeof successResponseSchema>;
