import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { ContactPayload } from "../../../shared/schemas/contacts";
import { apiGet } from "../api/client";
import { useCurrentUser } from "../api/current-user";
import { queryKeys } from "../api/query-keys";
import type { PortalClient } from "./portal-client-query";

/**
 * Who of the client's side is in the conversation (issue 26): shown once there is more than
 * one person, so a company knows who else reads and answers. The agency invites them.
 */
export function PortalPeople({ client }: { client: PortalClient }) {
  const { t } = useTranslation("portal");
  const { data: user } = useCurrentUser();
  const people = useQuery({
    queryKey: queryKeys.contacts(client.id),
    queryFn: () =>
      apiGet<ContactPayload[]>(`/api/clients/${encodeURIComponent(client.id)}/contacts`),
  });
  if (!people.data || people.data.length < 2) return null;
  const me = user?.email.toLowerCase();
  return (
    <section className="portal-settings" aria-labelledby="portal-people-title">
      <h2 id="portal-people-title" className="portal-settings__title">
        {t("People in this conversation")}
      </h2>
      <p className="portal-settings__hint">
        {t(
          "Everyone here reads and answers for your side. To add someone, ask the person who invited you.",
        )}
      </p>
      <ul className="portal-people">
        {people.data.map((person) => (
          <li key={person.id} className="portal-people__person">
            {person.name}
            {person.email.toLowerCase() === me && (
              <span className="portal-people__you">{` ${t("(you)")}`}</span>
            )}
            {!person.joinedAt && <span className="portal-people__you">{` · ${t("invited")}`}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}
