import { z } from "zod";

/**
 * Exports (issue 28, point 4): GET /api/clients/{id}/export, /api/export and /api/portal/export
 * answer 200 with the ZIP (application/zip, attachment), or 202 with this when the export is
 * large and will be emailed as a link instead.
 */
export const exportQueuedResponse = z.strictObject({ message: z.string() });
export type ExportQueuedResponse = z.infer<typeof exportQueuedResponse>;

/** The API paths of the three exports. */
export const exportPaths = {
  conversation: (clientId: string) => `/api/clients/${encodeURIComponent(clientId)}/export`,
  workspace: "/api/export",
  own: "/api/portal/export",
} as const;
