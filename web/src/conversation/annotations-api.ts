import type {
  AnnotationInput,
  AnnotationPayload,
  AnnotationReplyInput,
} from "../../../shared/schemas/annotations";
import { apiGet, apiPatch, apiPost } from "../api/client";
import { i18n } from "../i18n/i18n";

/** A review mark with its thread (issue 27), as GET .../annotations lists it. */
export type Annotation = AnnotationPayload;

const versionPath = (messageId: string, version: number) =>
  `/api/messages/${encodeURIComponent(messageId)}/versions/${version}/annotations`;
const markPath = (id: string) => `/api/annotations/${encodeURIComponent(id)}`;

/** The marks of version `version` of the file `messageId` belongs to, oldest first. */
export const fetchAnnotations = (messageId: string, version: number) =>
  apiGet<Annotation[]>(versionPath(messageId, version));

export const createAnnotation = (messageId: string, version: number, input: AnnotationInput) =>
  apiPost<Annotation>(versionPath(messageId, version), input);

export const replyToAnnotation = (id: string, input: AnnotationReplyInput) =>
  apiPost<Annotation>(`${markPath(id)}/replies`, input);

export const setAnnotationResolved = (id: string, resolved: boolean) =>
  apiPatch<Annotation>(markPath(id), { resolved });

/** "3 open marks", "1 open mark". */
export const openMarksLabel = (count: number) =>
  i18n.t("{{count}} open marks", { ns: "conversation", count });
