import { Trans, useTranslation } from "react-i18next";
import type { AuditAction, AuditEntry } from "../../../shared/schemas/audit";
import { TIER_CONFIG, type Tier } from "../../../shared/tiers";
import { useRoleLabels } from "./team-roles";

const planName = (tier: unknown) =>
  typeof tier === "string" && tier in TIER_CONFIG ? TIER_CONFIG[tier as Tier].name : String(tier);

/** The actor's name, the <0> of every sentence. */
const ACTOR = [<strong key="actor" />];

/**
 * Names are typed by people: escaped into the sentence before Trans reads its tags, and
 * unescaped in the text it renders, so that a client called "<0>x</0>" shows as typed.
 */
const AS_TYPED = { tOptions: { interpolation: { escapeValue: true } }, shouldUnescape: true };

/**
 * An audit entry as one whole sentence in the reader's language, the actor's name in bold:
 * "**Olga Owner** invited mia@example.com as Member". The English is what
 * describeAuditAction (shared/schemas/audit.ts) says in the CSV export; here each action is
 * its own sentence so that every language may order it as it needs.
 */
export function AuditSentence({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation("settings");
  const roleLabels = useRoleLabels();
  const roleName = (role: unknown) =>
    role === "admin" || role === "member" || role === "owner" ? roleLabels[role] : "?";
  const { details } = entry;
  const actor = entry.actorName;
  const subject = entry.subjectLabel;

  switch (entry.action as AuditAction) {
    case "member.invited":
      return details.reissued ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> invited again {{subject}} as {{role}}"
          values={{ actor, subject, role: roleName(details.role) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> invited {{subject}} as {{role}}"
          values={{ actor, subject, role: roleName(details.role) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "member.joined":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> joined the team as {{role}}"
          values={{ actor, role: roleName(details.role) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "member.role_changed":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> changed {{subject}}'s role from {{previousRole}} to {{role}}"
          values={{
            actor,
            subject,
            previousRole: roleName(details.previousRole),
            role: roleName(details.role),
          }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "member.removed":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> removed {{subject}} from the team"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "workspace.transferred":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> made {{subject}} the workspace's owner"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "client.added":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> added the client {{subject}}"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "client.assigned": {
      const names = Array.isArray(details.assignees) ? (details.assignees as string[]) : [];
      return names.length ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> assigned {{subject}} to {{names}}"
          values={{ actor, subject, names: names.join(", ") }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> left {{subject}} unassigned"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    }
    case "client.deleted":
      return typeof details.keptDays === "number" ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> deleted the client {{subject}} (restorable for {{count}} days)"
          count={details.keptDays}
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> deleted the client {{subject}}"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "client.restored":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> restored the client {{subject}}"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "client.purged":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> removed the deleted client {{subject}} for good"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "client.invite_reissued":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> issued a new invite link for {{subject}}"
          values={{ actor, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "contact.added":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> invited {{subject}} as a contact of {{client}}"
          values={{ actor, subject, client: String(details.client) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "contact.removed":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> removed {{subject}} from the contacts of {{client}}"
          values={{ actor, subject, client: String(details.client) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "plan.changed":
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> changed the plan to {{plan}}"
          values={{ actor, plan: planName(details.tier) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "seats.changed":
      return typeof details.previousSeats === "number" ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> changed the extra seats from {{previous}} to {{seats}}"
          values={{ actor, previous: details.previousSeats, seats: String(details.seats) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> changed the extra seats to {{seats}}"
          values={{ actor, seats: String(details.seats) }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "staff.signed_in":
      return details.method === "password" ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> signed in with a password"
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : details.method === "google" ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> signed in with Google"
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : details.method === "desktop" ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> signed in in the desktop app"
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> signed in"
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    case "workspace.retention_changed":
      return details.keptDays ? (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> set deleted clients to be kept for {{count}} days"
          count={Number(details.keptDays)}
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      ) : (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> set deleted clients to be removed at once"
          values={{ actor }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
    default:
      // An action this version does not know (a newer server): its code, as the CSV says it.
      return (
        <Trans
          t={t}
          i18nKey="<0>{{actor}}</0> {{action}} {{subject}}"
          values={{ actor, action: entry.action, subject }}
          components={ACTOR}
          {...AS_TYPED}
        />
      );
  }
}
